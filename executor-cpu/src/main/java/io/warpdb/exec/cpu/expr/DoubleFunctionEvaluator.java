package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * SQRT, EXP, LN, LOG10 (x) and POWER (x, y) in double, as IEEE 754 and DuckDB give them: no
 * errors, NaN for a negative square root or logarithm, -Infinity for the logarithm of 0,
 * Infinity on overflow.
 */
final class DoubleFunctionEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator x;
    /** POWER's exponent; null for the functions of one argument. */
    private final Evaluator y;
    private final DataType type;

    DoubleFunctionEvaluator(Op op, Evaluator x, Evaluator y, DataType type) {
        this.op = op;
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
            out[i] = apply(xs[i], ys == null ? 0 : ys[i]);
        }
        return Column.ofDoubles(type, out, Column.nullsOfAny(a, b));
    }

    private double apply(double v, double exponent) {
        return switch (op) {
            case SQRT -> Math.sqrt(v);
            case EXP -> Math.exp(v);
            case LN -> Math.log(v);
            case LOG10 -> Math.log10(v);
            case POWER -> Math.pow(v, exponent);
            default -> throw new IllegalStateException(op + " is not a DOUBLE function");
        };
    }
}
