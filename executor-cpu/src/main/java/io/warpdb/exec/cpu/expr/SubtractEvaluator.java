package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;

/** SUBTRACT of exact values, at the operands' common scale; also TIMESTAMP - TIMESTAMP in microseconds. */
final class SubtractEvaluator extends AlignedArithmeticEvaluator {
    SubtractEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type);
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.subtract(Decimals.multiply(x[i], leftFactor), Decimals.multiply(y[i], rightFactor));
            }
        }
    }
}
