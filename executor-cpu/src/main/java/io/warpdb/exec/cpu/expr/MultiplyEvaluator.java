package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;

/** MULTIPLY of exact values whose product keeps all its fraction digits (TPC-H q01's {@code price * (1 - discount)}). */
final class MultiplyEvaluator extends ArithmeticEvaluator {
    MultiplyEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type, scaleOf(left) + scaleOf(right));
    }

    @Override
    void compute(long[] x, long[] y, boolean[] nulls, long[] out) {
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.multiply(x[i], y[i]);
            }
        }
    }
}
