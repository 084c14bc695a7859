package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.function.DoubleBinaryOperator;

/**
 * SQRT, EXP, LN, LOG10 (x) and POWER (x, y) in double, as IEEE 754 and DuckDB give them: no
 * errors, NaN for a negative square root or logarithm, -Infinity for the logarithm of 0,
 * Infinity on overflow.
 */
final class DoubleFunctionEvaluator implements Evaluator {
    /** The function of (x, exponent), chosen once rather than per row. */
    private final DoubleBinaryOperator function;
    private final Evaluator x;
    /** POWER's exponent; null for the functions of one argument. */
    private final Evaluator y;
    private final DataType type;

    DoubleFunctionEvaluator(Op op, Evaluator x, Evaluator y, DataType type) {
        this.function = function(op);
        this.x = x;
        this.y = y;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = x.evaluate(input);
        Column b = y == null ? null : y.evaluate(input);
        double[] xs = a.doubles();
        double[] ys = b == null ? null : b.doubles();
        double[] out = new double[xs.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = function.applyAsDouble(xs[i], ys == null ? 0 : ys[i]);
        }
        return Column.ofDoubles(type, out, Column.nullsOfAny(a, b));
    }

    private static DoubleBinaryOperator function(Op op) {
        return switch (op) {
            case SQRT -> (v, exponent) -> Math.sqrt(v);
            case EXP -> (v, exponent) -> Math.exp(v);
            case LN -> (v, exponent) -> Math.log(v);
            case LOG10 -> (v, exponent) -> Math.log10(v);
            case POWER -> Math::pow;
            default -> throw new IllegalStateException(op + " is not a DOUBLE function");
        };
    }
}
