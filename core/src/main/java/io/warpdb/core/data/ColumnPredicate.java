package io.warpdb.core.data;

import io.warpdb.core.expr.Literal;

/**
 * A simple condition on one column that a scan may use to skip storage chunks whose zone map
 * (min, max, null count) proves that no row satisfies it. It is a hint: scans may still return
 * rows that fail it, so the plan keeps its filter.
 *
 * @param column position in the table's schema
 * @param op     the comparison, column on the left
 * @param value  the constant (non-null) for comparisons; null for IS_NULL / IS_NOT_NULL
 */
public record ColumnPredicate(int column, Comparison op, Literal value) {
    public enum Comparison {
        EQ, LT, LE, GT, GE, IS_NULL, IS_NOT_NULL
    }

    @Override
    public String toString() {
        return "$" + column + " " + op + (value == null ? "" : " " + value);
    }
}
