package io.warpdb.tpch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a suite's queries on WarpDB, times them and checks every answer against the reference:
 * what {@code warpdb tpch run} and {@code warpdb tpcds run} print, one line per query. A query
 * that fails to run is a FAIL with its error; the run goes on with the next.
 */
public final class SuiteRunner {
    /** How one query went: wall time and rows on WarpDB (rows -1 when it failed to run) and the verdict. */
    public record Outcome(SuiteQuery query, long nanos, int rows, AnswerChecker.Verdict verdict) {
        public boolean ok() {
            return verdict.ok();
        }

        /** {@code q01      12.3 ms       4 rows  OK}, or FAIL and the reason on one line. */
        public String format() {
            String answer = ok() ? "OK" : "FAIL  " + verdict.difference().replaceAll("\\s+", " ");
            return String.format(Locale.ROOT, "%-4s %10.1f ms %8s rows  %s", query.name(), nanos / 1e6,
                    rows < 0 ? "-" : Integer.toString(rows), answer);
        }
    }

    private final QueryTarget warpdb;
    private final QueryTarget reference;

    public SuiteRunner(QueryTarget warpdb, QueryTarget reference) {
        this.warpdb = warpdb;
        this.reference = reference;
    }

    /** Runs one query on WarpDB (timed: execution and fetching all rows), then on the reference, and compares. */
    public Outcome run(SuiteQuery query) {
        long start = System.nanoTime();
        ResultTable actual;
        try {
            actual = warpdb.query(query.sql());
        } catch (RuntimeException e) {
            return new Outcome(query, System.nanoTime() - start, -1, AnswerChecker.Verdict.fail("error: " + e));
        }
        long nanos = System.nanoTime() - start;
        return new Outcome(query, nanos, actual.rowCount(), check(query, reference, actual));
    }

    /** The reference's answer compared with {@code actual}; a reference that fails is a FAIL too. */
    static AnswerChecker.Verdict check(SuiteQuery query, QueryTarget reference, ResultTable actual) {
        ResultTable expected;
        try {
            expected = reference.query(query.sql());
        } catch (RuntimeException e) {
            return AnswerChecker.Verdict.fail(reference.name() + " failed: " + e);
        }
        return query.check(expected, actual);
    }

    /** Runs the queries in order, printing each outcome as it comes and a summary line. */
    public List<Outcome> runAll(List<? extends SuiteQuery> queries, PrintStream out) {
        out.println("query       time       rows  answer    (" + warpdb.name() + ", checked against " + reference.name() + ")");
        List<Outcome> outcomes = new ArrayList<>();
        for (SuiteQuery query : queries) {
            Outcome outcome = run(query);
            out.println(outcome.format());
            outcomes.add(outcome);
        }
        long failed = outcomes.stream().filter(o -> !o.ok()).count();
        double total = outcomes.stream().mapToLong(Outcome::nanos).sum() / 1e6;
        out.printf(Locale.ROOT, "%d of %d OK, %d FAIL, %.1f ms in all%n", outcomes.size() - failed, outcomes.size(), failed, total);
        return outcomes;
    }

    /** True when every outcome is OK; the CLI exits non-zero otherwise. */
    public static boolean allOk(List<Outcome> outcomes) {
        return outcomes.stream().allMatch(Outcome::ok);
    }
}
