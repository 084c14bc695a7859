package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Pow10;
import io.warpdb.exec.cpu.column.Column;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * NEGATE, ABS, SIGN, FLOOR, CEIL, ROUND(x, digits) and TRUNC(x, digits). Exact values are computed
 * on scaled longs and then brought to the result's scale; DOUBLE in double. ROUND rounds half away
 * from zero, TRUNC toward zero.
 */
final class MathFunctionEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator arg;
    /** ROUND's and TRUNC's number of fractional digits (may be negative); 0 for the others. */
    private final int digits;
    private final DataType type;
    private final int argScale;
    private final int resultScale;

    MathFunctionEvaluator(Op op, Evaluator arg, int digits, DataType type) {
        this.op = op;
        this.arg = arg;
        this.digits = digits;
        this.type = type;
        this.argScale = Decimals.scaleOf(arg.type());
        this.resultScale = Decimals.scaleOf(type);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = arg.evaluate(input);
        boolean[] nulls = a.nulls();
        int rows = input.rowCount();
        if (type.kind() == TypeKind.DOUBLE) {
            double[] x = a.toDoubles();
            double[] out = new double[rows];
            for (int i = 0; i < rows; i++) {
                out[i] = type.roundToDeclared(inexact(x[i]));
            }
            return Column.ofDoubles(type, out, nulls);
        }
        long[] x = a.longs();
        long[] out = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.checkFits(Decimals.rescale(exact(x[i]), argScale, resultScale), type);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    /** The result at the argument's scale. */
    private long exact(long x) {
        return switch (op) {
            case NEGATE -> Decimals.negate(x);
            case ABS -> x < 0 ? Decimals.negate(x) : x;
            case SIGN -> Long.signum(x) * Pow10.of(argScale);
            case FLOOR -> roundToDigits(x, 0, RoundingMode.FLOOR);
            case CEIL -> roundToDigits(x, 0, RoundingMode.CEILING);
            case ROUND -> roundToDigits(x, digits, RoundingMode.HALF_UP);
            case TRUNC -> roundToDigits(x, digits, RoundingMode.DOWN);
            default -> throw new IllegalStateException(op + " is not a math function");
        };
    }

    /** x (at the argument's scale) rounded to {@code keep} fractional digits, still at the argument's scale. */
    private long roundToDigits(long x, int keep, RoundingMode mode) {
        if (keep >= argScale) {
            return x;
        }
        int drop = argScale - keep;
        if (drop > Pow10.MAX_EXPONENT) {
            return 0; // |x| < 0.5 * 10^19: rounding to a unit of 10^19 or more leaves 0
        }
        long unit = Pow10.of(drop);
        return Decimals.multiply(Decimals.divide(x, unit, mode), unit);
    }

    private double inexact(double x) {
        return switch (op) {
            case NEGATE -> -x;
            case ABS -> Math.abs(x);
            case SIGN -> Math.signum(x);
            case FLOOR -> Math.floor(x);
            case CEIL -> Math.ceil(x);
            case ROUND -> Decimals.round(x, digits);
            case TRUNC -> Double.isFinite(x) ? BigDecimal.valueOf(x).setScale(digits, RoundingMode.DOWN).doubleValue() : x;
            default -> throw new IllegalStateException(op + " is not a math function");
        };
    }
}
