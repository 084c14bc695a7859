package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;

/** MOD of exact values at their common scale, with the dividend's sign as Java's % has it; 22012 for a zero divisor. */
final class ModuloEvaluator extends AlignedArithmeticEvaluator {
    ModuloEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type);
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                long divisor = Decimals.multiply(y[i], rightFactor);
                if (divisor == 0) {
                    throw Decimals.divisionByZero();
                }
                out[i] = Decimals.multiply(x[i], leftFactor) % divisor;
            }
        }
    }
}
