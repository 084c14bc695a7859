package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;

/**
 * ADD, SUBTRACT, MULTIPLY, DIVIDE and MOD in double, for a DOUBLE result or operand
 * ({@link ExprCompiler} casts afterwards if the result is not DOUBLE); 22012 for a zero divisor.
 */
final class DoubleArithmeticEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator left;
    private final Evaluator right;
    private final DataType type;

    DoubleArithmeticEvaluator(Op op, Evaluator left, Evaluator right, DataType type) {
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
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
        double[] x = a.toDoubles();
        double[] y = b.toDoubles();
        double[] out = new double[input.rowCount()];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = type.roundToDeclared(apply(x[i], y[i]));
            }
        }
        return Column.ofDoubles(type, out, nulls);
    }

    private double apply(double x, double y) {
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
