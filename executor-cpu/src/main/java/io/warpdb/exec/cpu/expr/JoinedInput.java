package io.warpdb.exec.cpu.expr;

import io.warpdb.exec.cpu.column.Column;

/** Two equally long inputs side by side: the left's columns, then the right's (a join's row pairs). */
public final class JoinedInput implements EvalInput {
    private final EvalInput left;
    private final int leftWidth;
    private final EvalInput right;

    public JoinedInput(EvalInput left, int leftWidth, EvalInput right) {
        this.left = left;
        this.leftWidth = leftWidth;
        this.right = right;
    }

    @Override
    public int rowCount() {
        return left.rowCount();
    }

    @Override
    public Column column(int index) {
        return index < leftWidth ? left.column(index) : right.column(index - leftWidth);
    }
}
