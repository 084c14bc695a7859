package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;

/** ADD of exact values, at the operands' common scale. */
final class AddEvaluator extends AlignedArithmeticEvaluator {
    AddEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type);
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.add(Decimals.multiply(x[i], leftFactor), Decimals.multiply(y[i], rightFactor));
            }
        }
    }
}
