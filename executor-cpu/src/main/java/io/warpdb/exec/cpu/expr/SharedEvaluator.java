package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * A subexpression used in several places of the expressions compiled together: it computes its
 * column once per input and hands the same (immutable) column to every user. Inputs are told
 * apart by identity, since each batch is wrapped in a new {@link EvalInput}.
 */
final class SharedEvaluator implements Evaluator {
    private final Evaluator inner;
    private EvalInput lastInput;
    private Column lastResult;

    SharedEvaluator(Evaluator inner) {
        this.inner = inner;
    }

    @Override
    public DataType type() {
        return inner.type();
    }

    @Override
    public Column evaluate(EvalInput input) {
        if (input != lastInput) {
            lastResult = inner.evaluate(input);
            lastInput = input;
        }
        return lastResult;
    }
}
