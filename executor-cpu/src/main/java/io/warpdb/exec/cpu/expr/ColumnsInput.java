package io.warpdb.exec.cpu.expr;

import io.warpdb.exec.cpu.column.Column;

/** Rows given as columns already in hand. */
public final class ColumnsInput implements EvalInput {
    private final Column[] columns;
    private final int rowCount;

    public ColumnsInput(int rowCount, Column... columns) {
        this.rowCount = rowCount;
        this.columns = columns;
    }

    @Override
    public int rowCount() {
        return rowCount;
    }

    @Override
    public Column column(int index) {
        return columns[index];
    }
}
