package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Pow10;

/** ADD, SUBTRACT and MOD: both operands are brought to their common scale, each by a power of ten fixed when compiled. */
abstract class AlignedArithmeticEvaluator extends ArithmeticEvaluator {
    /** The power of ten each operand is multiplied by: 1 for the one already at the common scale. */
    final long leftFactor;
    final long rightFactor;

    AlignedArithmeticEvaluator(Evaluator left, Evaluator right, DataType type) {
        super(left, right, type, Math.max(scaleOf(left), scaleOf(right)));
        this.leftFactor = Pow10.of(Math.max(scaleOf(right) - scaleOf(left), 0));
        this.rightFactor = Pow10.of(Math.max(scaleOf(left) - scaleOf(right), 0));
    }
}
