package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;
import java.math.RoundingMode;

/**
 * ADD, SUBTRACT, MULTIPLY, DIVIDE and MOD. Exact operands (INTEGER, BIGINT, DECIMAL, mixed
 * freely) are computed exactly on scaled longs and rounded HALF_UP to the result's scale
 * (integer division truncates); overflow raises 22003. When the result or an operand is DOUBLE
 * the computation is in double ({@link ExprCompiler} casts afterwards if the result is not DOUBLE).
 * The INTERVAL between two TIMESTAMPs is their SUBTRACT too: microseconds, scale 0.
 */
final class ArithmeticEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator left;
    private final Evaluator right;
    private final DataType type;
    private final boolean inDouble;
    private final int leftScale;
    private final int rightScale;
    /** Scale both operands are brought to for ADD, SUBTRACT and MOD. */
    private final int commonScale;
    private final int resultScale;
    private final RoundingMode divideRounding;

    ArithmeticEvaluator(Op op, Evaluator left, Evaluator right, DataType type) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
        this.inDouble = type.kind() == TypeKind.DOUBLE;
        this.leftScale = Decimals.scaleOf(left.type());
        this.rightScale = Decimals.scaleOf(right.type());
        this.commonScale = Math.max(leftScale, rightScale);
        this.resultScale = Decimals.scaleOf(type);
        this.divideRounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = left.evaluate(input);
        Column b = right.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(a, b);
        int rows = input.rowCount();
        if (inDouble) {
            double[] x = a.toDoubles();
            double[] y = b.toDoubles();
            double[] out = new double[rows];
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    out[i] = type.roundToDeclared(inexact(x[i], y[i]));
                }
            }
            return Column.ofDoubles(type, out, nulls);
        }
        long[] x = a.longs();
        long[] y = b.longs();
        long[] out = new long[rows];
        // One loop per operator, so that the common ones compile to a tight loop.
        switch (op) {
            case ADD -> {
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = fromCommonScale(Decimals.add(toCommonScale(x[i], leftScale), toCommonScale(y[i], rightScale)));
                    }
                }
            }
            case SUBTRACT -> {
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = fromCommonScale(Decimals.subtract(toCommonScale(x[i], leftScale), toCommonScale(y[i], rightScale)));
                    }
                }
            }
            case MULTIPLY -> {
                int productScale = leftScale + rightScale;
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = Decimals.multiplyRescaled(x[i], y[i], productScale, resultScale);
                    }
                }
            }
            default -> {
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        out[i] = divideOrModulo(x[i], y[i]);
                    }
                }
            }
        }
        if (type.kind() == TypeKind.INTEGER) {
            for (long v : out) {
                Decimals.checkFits(v, type);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private long divideOrModulo(long x, long y) {
        return switch (op) {
            case DIVIDE -> Decimals.divideScaled(x, leftScale, y, rightScale, resultScale, divideRounding);
            case MOD -> {
                long divisor = toCommonScale(y, rightScale);
                if (divisor == 0) {
                    throw Decimals.divisionByZero();
                }
                // Java's % keeps the dividend's sign, as SQL's MOD does.
                yield fromCommonScale(toCommonScale(x, leftScale) % divisor);
            }
            default -> throw new IllegalStateException(op + " is not DIVIDE or MOD");
        };
    }

    private long toCommonScale(long v, int scale) {
        return Decimals.scaleUp(v, commonScale - scale);
    }

    private long fromCommonScale(long v) {
        return Decimals.rescale(v, commonScale, resultScale);
    }

    private double inexact(double x, double y) {
        return switch (op) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE -> {
                if (y == 0) {
                    throw Decimals.divisionByZero();
                }
                yield x / y;
            }
            case MOD -> {
                if (y == 0) {
                    throw Decimals.divisionByZero();
                }
                yield x % y;
            }
            default -> throw new IllegalStateException(op + " is not arithmetic");
        };
    }
}
