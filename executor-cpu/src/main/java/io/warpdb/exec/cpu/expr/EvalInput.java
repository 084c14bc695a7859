package io.warpdb.exec.cpu.expr;

import io.warpdb.exec.cpu.column.Column;

/** The rows an expression is evaluated over: a row count and the columns that column references read. */
public interface EvalInput {
    int rowCount();

    /** Column {@code index}, with {@link #rowCount()} rows; implementations load it on first use. */
    Column column(int index);

    /** The values of {@code rows} (in that order) of column {@code index}. */
    default Column gathered(int index, int[] rows) {
        return column(index).gather(rows);
    }
}
