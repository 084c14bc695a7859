package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import java.math.RoundingMode;

/** DIVIDE of exact values: a DECIMAL quotient rounded HALF_UP, an integer one truncated; 22012 for a zero divisor. */
final class DivideEvaluator extends ArithmeticEvaluator {
    private final int leftScale;
    private final int rightScale;
    private final int resultScale;
    private final RoundingMode rounding;

    DivideEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type, Decimals.scaleOf(type));
        this.leftScale = scaleOf(left);
        this.rightScale = scaleOf(right);
        this.resultScale = Decimals.scaleOf(type);
        this.rounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.divideScaled(x[i], leftScale, y[i], rightScale, resultScale, rounding);
            }
        }
    }
}
