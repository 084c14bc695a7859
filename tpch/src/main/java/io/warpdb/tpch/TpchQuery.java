package io.warpdb.tpch;

import java.util.List;

/**
 * One of the 22 TPC-H queries with its validation parameters. {@code orderBy} names the result
 * columns of its top-level ORDER BY, empty when it has none (then row order is not checked).
 */
public record TpchQuery(int number, String sql, List<String> orderBy) {
    public TpchQuery {
        orderBy = List.copyOf(orderBy);
    }

    /** {@code q01} .. {@code q22}. */
    public String name() {
        return String.format("q%02d", number);
    }
}
