package io.warpdb.tpch;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load test: {@code clients} JDBC connections to one server, each running the TPC-H queries one
 * after another (each client starting at another query) until the time is up, every answer
 * checked against the reference. Reports throughput and latency percentiles; every error and
 * wrong answer is counted and the first few are kept for the report.
 */
public final class ConcurrentClients {
    private static final int KEPT_FAILURES = 5;

    /** What the clients did; latencies in milliseconds. */
    public record Report(int clients, double seconds, long queries, long errors, long wrongAnswers, double p50Ms, double p99Ms,
            double maxMs, List<String> failures) {
        public double queriesPerSecond() {
            return queries / seconds;
        }

        public String format() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                    "%d clients, %.0f s: %d queries (%.2f/s), %d errors, %d wrong answers; latency p50 %.1f ms, p99 %.1f ms,"
                            + " max %.1f ms%n", clients, seconds, queries, queriesPerSecond(), errors, wrongAnswers, p50Ms, p99Ms, maxMs));
            failures.forEach(f -> sb.append("  ").append(f).append(System.lineSeparator()));
            return sb.toString();
        }
    }

    private ConcurrentClients() {
    }

    /**
     * Runs {@code clients} connections to {@code url} for {@code duration}; {@code expected} holds
     * each query's reference answer. Progress goes to {@code out} every ten seconds.
     */
    public static Report run(String url, java.util.Properties properties, Map<TpchQuery, ResultTable> expected, int clients,
            Duration duration, PrintStream out) throws InterruptedException {
        List<TpchQuery> queries = new ArrayList<>(expected.keySet());
        long deadline = System.nanoTime() + duration.toNanos();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong errors = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int first = client;
                running.add(pool.submit(() -> {
                    try (Connection c = DriverManager.getConnection(url, properties)) {
                        for (int i = first; System.nanoTime() < deadline; i++) {
                            TpchQuery q = queries.get(i % queries.size());
                            long t0 = System.nanoTime();
                            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q.sql())) {
                                ResultTable answer = ResultTable.of(rs);
                                latencies.add(System.nanoTime() - t0);
                                AnswerChecker.Verdict verdict = AnswerChecker.check(expected.get(q), answer, q.orderBy());
                                if (!verdict.ok()) {
                                    wrong.incrementAndGet();
                                    keep(failures, q.name() + " wrong answer: " + verdict.difference());
                                }
                            } catch (SQLException | RuntimeException e) {
                                errors.incrementAndGet();
                                keep(failures, q.name() + " failed: " + e);
                            }
                        }
                    } catch (SQLException e) {
                        errors.incrementAndGet();
                        keep(failures, "cannot connect: " + e);
                    }
                    return null;
                }));
            }
            long next = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!running.stream().allMatch(Future::isDone)) {
                Thread.sleep(100);
                if (System.nanoTime() >= next) {
                    out.printf(Locale.ROOT, "%.0f s: %d queries, %d errors, %d wrong%n", (System.nanoTime() - start) / 1e9,
                            latencies.size(), errors.get(), wrong.get());
                    next += Duration.ofSeconds(10).toNanos();
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Report(clients, seconds, sorted.length, errors.get(), wrong.get(), percentile(sorted, 0.50),
                percentile(sorted, 0.99), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6,
                List.copyOf(failures));
    }

    private static void keep(ConcurrentLinkedQueue<String> failures, String failure) {
        if (failures.size() < KEPT_FAILURES) {
            failures.add(failure);
        }
    }

    /** The nearest-rank percentile of sorted nanoseconds, in milliseconds. */
    static double percentile(long[] sortedNanos, double p) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sortedNanos.length);
        return sortedNanos[Math.max(0, Math.min(sortedNanos.length, rank) - 1)] / 1e6;
    }
}
