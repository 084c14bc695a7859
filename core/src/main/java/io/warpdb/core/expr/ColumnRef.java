package io.warpdb.core.expr;

import io.warpdb.core.types.DataType;

/** The value of input column {@code index}. */
public record ColumnRef(int index, DataType type) implements Expr {
    @Override
    public String toString() {
        return "$" + index;
    }
}
