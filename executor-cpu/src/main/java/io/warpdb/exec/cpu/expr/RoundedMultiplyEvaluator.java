package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;

/**
 * MULTIPLY of exact values whose product has more fraction digits than its type keeps: rounded
 * HALF_UP, from 128 bits where the exact product does not fit 64 ({@link Decimals#multiplyRescaled}).
 */
final class RoundedMultiplyEvaluator extends ArithmeticEvaluator {
    private final int productScale;
    private final int resultScale;

    RoundedMultiplyEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type, Decimals.scaleOf(type));
        this.productScale = scaleOf(left) + scaleOf(right);
        this.resultScale = Decimals.scaleOf(type);
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.multiplyRescaled(x[i], y[i], productScale, resultScale);
            }
        }
    }
}
