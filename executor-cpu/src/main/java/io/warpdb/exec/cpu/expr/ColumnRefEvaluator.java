package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/** Reads an input column. */
final class ColumnRefEvaluator implements Evaluator {
    private final int index;
    private final DataType type;

    ColumnRefEvaluator(int index, DataType type) {
        this.index = index;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        return input.column(index);
    }
}
