package io.warpdb.tpch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times each TPC-H query on WarpDB and on DuckDB in the same process over the same data: after
 * warm-up runs (the first of which checks WarpDB's answer), {@code runs} timed runs on each,
 * reporting medians and the ratio WarpDB / DuckDB (below 1: WarpDB is faster).
 */
public final class TpchBench {
    /** Medians in milliseconds; warpdbMs is NaN when WarpDB failed to run the query. */
    public record Timing(TpchQuery query, double warpdbMs, double duckdbMs, AnswerChecker.Verdict verdict) {
        public double ratio() {
            return warpdbMs / duckdbMs;
        }

        /** Counted in the geometric mean: it ran and its answer was right. */
        public boolean counts() {
            return verdict.ok() && !Double.isNaN(warpdbMs);
        }

        public String format() {
            String answer = verdict.ok() ? "OK" : "FAIL  " + verdict.difference().replaceAll("\\s+", " ");
            return String.format(Locale.ROOT, "%-4s %12.2f %12.2f %8.2f  %s", query.name(), warpdbMs, duckdbMs, ratio(), answer);
        }
    }

    /** All timings; the geometric mean ratio is over the queries that ran and answered right. */
    public record Report(String title, List<Timing> timings) {
        public Report {
            timings = List.copyOf(timings);
        }

        public double geomeanRatio() {
            return Math.exp(timings.stream().filter(Timing::counts).mapToDouble(t -> Math.log(t.ratio())).average().orElse(Double.NaN));
        }
    }

    private final QueryTarget warpdb;
    private final QueryTarget duckdb;
    private final int warmups;
    private final int runs;

    public TpchBench(QueryTarget warpdb, QueryTarget duckdb, int warmups, int runs) {
        if (warmups < 1 || runs < 1) {
            throw new IllegalArgumentException("need at least one warm-up run (it checks the answer) and one timed run");
        }
        this.warpdb = warpdb;
        this.duckdb = duckdb;
        this.warmups = warmups;
        this.runs = runs;
    }

    /** Benchmarks the queries in order, printing a line per query and then {@code geomean ratio <x>}. */
    public Report run(String title, List<TpchQuery> queries, PrintStream out) {
        out.println(title);
        out.printf(Locale.ROOT, "%-4s %12s %12s %8s  %s%n", "query", "warpdb_ms", "duckdb_ms", "ratio", "answer");
        List<Timing> timings = new ArrayList<>();
        for (TpchQuery query : queries) {
            Timing timing = time(query);
            out.println(timing.format());
            timings.add(timing);
        }
        Report report = new Report(title, timings);
        long left = timings.stream().filter(t -> !t.counts()).count();
        if (left > 0) {
            out.println(left + " failed quer" + (left == 1 ? "y is" : "ies are") + " left out of the geometric mean");
        }
        out.printf(Locale.ROOT, "geomean ratio %.3f%n", report.geomeanRatio());
        return report;
    }

    private Timing time(TpchQuery query) {
        double duckdbMs = warmUpAndTime(duckdb, query.sql(), warmups);
        try {
            AnswerChecker.Verdict verdict = TpchRunner.check(query, duckdb, warpdb.query(query.sql()));
            return new Timing(query, warmUpAndTime(warpdb, query.sql(), warmups - 1), duckdbMs, verdict);
        } catch (RuntimeException e) {
            return new Timing(query, Double.NaN, duckdbMs, AnswerChecker.Verdict.fail("error: " + e));
        }
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
