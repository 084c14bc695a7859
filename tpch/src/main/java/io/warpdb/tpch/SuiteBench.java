package io.warpdb.tpch;

import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Times each query of a suite on one or more WarpDB executors and on DuckDB in the same process over
 * the same data: after warm-up runs (the first of which, run for every query before any is timed, checks each executor's answer),
 * {@code runs} timed runs on each, reporting medians and each executor's ratio to DuckDB
 * (below 1: WarpDB is faster).
 */
public final class SuiteBench {
    /** One query on one executor: medians in milliseconds; warpdbMs is NaN when WarpDB failed to run the query. */
    public record Timing(SuiteQuery query, String executor, double warpdbMs, double duckdbMs, AnswerChecker.Verdict verdict) {
        public double ratio() {
            return warpdbMs / duckdbMs;
        }

        /** Counted in the geometric mean: it ran and its answer was right. */
        public boolean counts() {
            return verdict.ok() && !Double.isNaN(warpdbMs);
        }
    }

    /**
     * All timings, query by query and within a query executor by executor; the geometric mean
     * ratios are over the queries that ran and answered right.
     */
    public record Report(String title, List<String> executors, List<Timing> timings) {
        public Report {
            executors = List.copyOf(executors);
            timings = List.copyOf(timings);
        }

        /** The executor's timings, in query order. */
        public List<Timing> timings(String executor) {
            return timings.stream().filter(t -> t.executor().equals(executor)).toList();
        }

        public double geomeanRatio(String executor) {
            return Math.exp(timings(executor).stream().filter(Timing::counts).mapToDouble(t -> Math.log(t.ratio()))
                    .average().orElse(Double.NaN));
        }

        /** The first executor's geometric mean ratio (the only one when a single executor was measured). */
        public double geomeanRatio() {
            return geomeanRatio(executors.get(0));
        }
    }

    private final Map<String, QueryTarget> warpdb;
    private final QueryTarget duckdb;
    private final int warmups;
    private final int runs;

    /** {@code warpdb} maps an executor's label (e.g. {@code cpu}) to its target; output follows the map's order. */
    public SuiteBench(Map<String, ? extends QueryTarget> warpdb, QueryTarget duckdb, int warmups, int runs) {
        if (warpdb.isEmpty()) {
            throw new IllegalArgumentException("need at least one WarpDB executor");
        }
        if (warmups < 1 || runs < 1) {
            throw new IllegalArgumentException("need at least one warm-up run (it checks the answer) and one timed run");
        }
        this.warpdb = new LinkedHashMap<>(warpdb);
        this.duckdb = duckdb;
        this.warmups = warmups;
        this.runs = runs;
    }

    /**
     * Benchmarks the queries in order, printing a line per query and then the geometric mean
     * ratios: {@code geomean ratio <x>} for one executor, {@code geomean ratio cpu <x>, gpu <y>} for several.
     */
    public Report run(String title, List<? extends SuiteQuery> queries, PrintStream out) {
        List<String> executors = List.copyOf(warpdb.keySet());
        boolean single = executors.size() == 1;
        out.println(title);
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-5s", "query"));
        executors.forEach(e -> header.append(String.format(Locale.ROOT, " %12s", (single ? "warpdb" : e) + "_ms")));
        header.append(String.format(Locale.ROOT, " %12s", "duckdb_ms"));
        executors.forEach(e -> header.append(String.format(Locale.ROOT, " %9s", single ? "ratio" : e + "/duck")));
        out.println(header.append("  answer"));
        // The first warm-up run of every query, on every engine, comes before any timing (it also
        // checks the answers): a JVM compiles the code that later queries share while the early
        // ones run, and on a small machine its compiler threads take cores from the query itself.
        Map<SuiteQuery, Map<String, FirstRun>> firstRuns = new LinkedHashMap<>();
        for (SuiteQuery query : queries) {
            firstRuns.put(query, check(query));
        }
        awaitCompilerIdle();
        List<Timing> timings = new ArrayList<>();
        for (SuiteQuery query : queries) {
            List<Timing> row = time(query, firstRuns.get(query));
            out.println(format(row));
            timings.addAll(row);
        }
        Report report = new Report(title, executors, timings);
        long left = timings.stream().filter(t -> !t.counts()).count();
        if (left > 0) {
            out.println(left + " failed quer" + (left == 1 ? "y is" : "ies are") + " left out of the geometric mean");
        }
        out.println("geomean ratio " + (single ? geomean(report.geomeanRatio())
                : executors.stream().map(e -> e + " " + geomean(report.geomeanRatio(e))).collect(Collectors.joining(", "))));
        return report;
    }

    /** The longest wait for the JIT compiler to finish what the warm-up runs queued. */
    private static final long MAX_COMPILER_WAIT_MS = 10_000;
    private static final long COMPILER_IDLE_MS = 200;

    /**
     * Waits until the JIT compiler has finished no compilation for {@link #COMPILER_IDLE_MS}
     * (at most {@link #MAX_COMPILER_WAIT_MS}): the warm-up runs leave compilations queued, whose
     * compiler threads would otherwise take cores from the first timed query (TPC-H Q1 took 1.03
     * and 1.82 times DuckDB's time in two runs on a quiet 2-core machine).
     */
    private static void awaitCompilerIdle() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + MAX_COMPILER_WAIT_MS * 1_000_000;
        long compiled = compiler.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(COMPILER_IDLE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = compiler.getTotalCompilationTime();
            if (now == compiled) {
                return;
            }
            compiled = now;
        }
    }

    private static String geomean(double ratio) {
        return String.format(Locale.ROOT, "%.3f", ratio);
    }

    /** One line: each executor's time, DuckDB's, each ratio, then OK or the failures named by executor. */
    private String format(List<Timing> row) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-5s", row.get(0).query().name()));
        row.forEach(t -> s.append(String.format(Locale.ROOT, " %12.2f", t.warpdbMs())));
        s.append(String.format(Locale.ROOT, " %12.2f", row.get(0).duckdbMs()));
        row.forEach(t -> s.append(String.format(Locale.ROOT, " %9.2f", t.ratio())));
        String failures = row.stream().filter(t -> !t.verdict().ok())
                .map(t -> (row.size() == 1 ? "" : t.executor() + ": ") + t.verdict().difference().replaceAll("\\s+", " "))
                .collect(Collectors.joining("; "));
        return s.append(failures.isEmpty() ? "  OK" : "  FAIL  " + failures).toString();
    }

    /** An executor's first run of a query: its answer's verdict, and whether it failed to run at all. */
    private record FirstRun(AnswerChecker.Verdict verdict, boolean failed) {
    }

    /**
     * The first warm-up run of the query on DuckDB and on each executor, whose answer it checks;
     * each first run's time goes to standard error as it ends, so that a bench cut short (a large
     * scale factor, a time limit) still shows where its time went.
     */
    private Map<String, FirstRun> check(SuiteQuery query) {
        long start = System.nanoTime();
        duckdb.query(query.sql());
        StringBuilder progress = new StringBuilder(String.format(Locale.ROOT, "first run of %s: duckdb %.1f ms", query.name(),
                (System.nanoTime() - start) / 1e6));
        Map<String, FirstRun> firstRuns = new LinkedHashMap<>();
        warpdb.forEach((executor, target) -> {
            long began = System.nanoTime();
            try {
                firstRuns.put(executor, new FirstRun(SuiteRunner.check(query, duckdb, target.query(query.sql())), false));
            } catch (RuntimeException e) {
                firstRuns.put(executor, new FirstRun(AnswerChecker.Verdict.fail("error: " + e), true));
            }
            progress.append(String.format(Locale.ROOT, ", %s %.1f ms%s", executor, (System.nanoTime() - began) / 1e6,
                    firstRuns.get(executor).verdict().ok() ? "" : " (failed)"));
        });
        System.err.println(progress);
        return firstRuns;
    }

    /** DuckDB's time for the query, then each executor's, after the remaining warm-up runs; executors that failed are not timed. */
    private List<Timing> time(SuiteQuery query, Map<String, FirstRun> firstRuns) {
        double duckdbMs = warmUpAndTime(duckdb, query.sql(), warmups - 1);
        List<Timing> row = new ArrayList<>();
        warpdb.forEach((executor, target) -> {
            AnswerChecker.Verdict verdict = firstRuns.get(executor).verdict();
            if (firstRuns.get(executor).failed()) {
                row.add(new Timing(query, executor, Double.NaN, duckdbMs, verdict));
                return;
            }
            try {
                row.add(new Timing(query, executor, warmUpAndTime(target, query.sql(), warmups - 1), duckdbMs, verdict));
            } catch (RuntimeException e) {
                row.add(new Timing(query, executor, Double.NaN, duckdbMs, AnswerChecker.Verdict.fail("error: " + e)));
            }
        });
        return row;
    }

    /** Median wall time of {@code runs} runs after {@code warmupRuns} untimed ones; each includes fetching all rows. */
    private double warmUpAndTime(QueryTarget target, String sql, int warmupRuns) {
        for (int i = 0; i < warmupRuns; i++) {
            target.query(sql);
        }
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            target.query(sql);
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return runs % 2 == 1 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    }
}
