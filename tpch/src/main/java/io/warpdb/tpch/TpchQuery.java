package io.warpdb.tpch;

import java.util.List;

/**
 * One of the 22 TPC-H queries with its validation parameters. {@code orderBy} names the result
 * columns of its top-level ORDER BY, empty when it has none (then row order is not checked);
 * {@code tables} are the TPC-H tables it reads, in {@link TpchSchema#tables()} order.
 */
public record TpchQuery(int number, String sql, List<String> orderBy, List<TpchSchema.Table> tables) implements SuiteQuery {
    public TpchQuery {
        orderBy = List.copyOf(orderBy);
        tables = List.copyOf(tables);
    }

    /** Row order is checked on the ORDER BY columns only. */
    @Override
    public AnswerChecker.Verdict check(ResultTable expected, ResultTable actual) {
        return AnswerChecker.check(expected, actual, orderBy);
    }
}
