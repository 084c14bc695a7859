package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryFailure.Kind;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Query;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The judging shared by the reference-free oracles: two queries that must give equal answers
 * run on WarpDB alone, on every executor.
 */
final class SelfComparison {
    private SelfComparison() {
    }

    /**
     * Runs both queries on each executor. {@code difference} says how the first query's result
     * differs from the second's, or null when they agree.
     */
    static Check check(Query first, Query second, Engines engines, BiFunction<QueryResult, QueryResult, String> difference,
            String oracle) {
        String firstSql = first.render(Dialect.WARPDB);
        String secondSql = second.render(Dialect.WARPDB);
        Check worst = null;
        for (Map.Entry<String, Engine> e : engines.warpdb().entrySet()) {
            String executor = e.getKey();
            Outcome a = e.getValue().run(firstSql);
            Outcome b = e.getValue().run(secondSql);
            worst = Check.worse(worst, judge(executor, first, a, second, b, engines, difference, oracle));
        }
        return worst;
    }

    private static Check judge(String executor, Query first, Outcome a, Query second, Outcome b, Engines engines,
            BiFunction<QueryResult, QueryResult, String> difference, String oracle) {
        String detail = "WarpDB (" + executor + "): query 1: " + a.summary() + "; query 2: " + b.summary();
        for (Outcome o : new Outcome[] {a, b}) {
            if (o.failedWith(Kind.RAW)) {
                return new Check(Verdict.RAW_ERROR, executor, DuckDbOracle.rawSignature(o.failure()), detail, o, o == a ? b : a);
            }
        }
        if (a.failedWith(Kind.TIMEOUT) || b.failedWith(Kind.TIMEOUT)) {
            return new Check(Verdict.TIMEOUT, executor, "timeout", detail, a, b);
        }
        if (a.failedWith(Kind.UNSUPPORTED) || b.failedWith(Kind.UNSUPPORTED)) {
            return new Check(Verdict.UNSUPPORTED, executor, "unsupported", detail, a, b);
        }
        if (a.failedWith(Kind.DATA) || b.failedWith(Kind.DATA)) {
            return new Check(Verdict.EXPECTED_ERROR, executor, "expected", detail, a, b);
        }
        if (!a.ok() || !b.ok()) {
            // WarpDB rejected one of the queries: a finding if DuckDB takes it, else a fuzzer bug.
            Query rejected = a.ok() ? second : first;
            Outcome duck = engines.duckdb().run(rejected.render(Dialect.DUCKDB));
            Outcome failed = a.ok() ? b : a;
            return duck.failedWith(Kind.OTHER) ? new Check(Verdict.INVALID, executor, "invalid", detail, a, b)
                    : new Check(Verdict.MISMATCH, executor, "mismatch:" + oracle + ":rejects:" + failed.failure().sqlState(),
                            detail + "; DuckDB runs the rejected query: " + duck.summary(), failed, duck);
        }
        String diff = difference.apply(a.result(), b.result());
        return diff == null ? Check.ok(executor)
                : new Check(Verdict.MISMATCH, executor, "mismatch:" + oracle + ":" + executor, detail + "; " + diff, a, b);
    }
}
