package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;

/**
 * ADD, SUBTRACT, MULTIPLY, DIVIDE and MOD on exact operands (INTEGER, BIGINT, DECIMAL, mixed
 * freely), computed exactly on scaled longs and rounded HALF_UP to the result's scale (integer
 * division truncates); overflow raises 22003. The INTERVAL between two TIMESTAMPs is their
 * SUBTRACT too: microseconds, scale 0. Results or operands in DOUBLE are {@link DoubleArithmeticEvaluator}'s.
 *
 * <p>Each operator, and each shape of it that needs other work per row, is a subclass of its own,
 * picked once by {@link #of}: its row loop is then a method whose profile only that shape fills, so
 * the JIT compiles each loop for its own operator. With one method holding every operator's loop,
 * TPC-H q01's products were compiled together with the other queries' divisions and rescalings
 * and ran three times slower after them (docs/benchmarks.md).
 */
abstract class ArithmeticEvaluator implements Evaluator {
    private final Evaluator left;
    private final Evaluator right;
    private final DataType type;
    /** The scale {@link #compute} leaves its results at; rescaled to the type's afterwards where they differ. */
    private final int computedScale;

    ArithmeticEvaluator(Evaluator left, Evaluator right, DataType type, int computedScale) {
        this.left = left;
        this.right = right;
        this.type = type;
        this.computedScale = computedScale;
    }

    /** The evaluator of {@code left op right} with result {@code type}. */
    static Evaluator of(Op op, Evaluator left, Evaluator right, DataType type) {
        if (type.kind() == TypeKind.DOUBLE) {
            return new DoubleArithmeticEvaluator(op, left, right, type);
        }
        return switch (op) {
            case ADD -> new AddEvaluator(left, right, type);
            case SUBTRACT -> new SubtractEvaluator(left, right, type);
            case MULTIPLY -> scaleOf(left) + scaleOf(right) > Decimals.scaleOf(type)
                    ? new RoundedMultiplyEvaluator(left, right, type)
                    : new MultiplyEvaluator(left, right, type);
            case DIVIDE -> new DivideEvaluator(left, right, type);
            case MOD -> new ModuloEvaluator(left, right, type);
            default -> throw new IllegalStateException(op + " is not arithmetic");
        };
    }

    @Override
    public final DataType type() {
        return type;
    }

    @Override
    public final Column evaluate(EvalInput input) {
        Column a = left.evaluate(input);
        Column b = right.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(a, b);
        long[] out = new long[input.rowCount()];
        compute(a.longs(), b.longs(), nulls, out);
        int resultScale = Decimals.scaleOf(type);
        if (computedScale != resultScale) {
            for (int i = 0; i < out.length; i++) {
                out[i] = Decimals.rescale(out[i], computedScale, resultScale);
            }
        }
        if (type.kind() == TypeKind.INTEGER) {
            for (long v : out) {
                Decimals.checkFits(v, type);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    /** {@code out[i] = x[i] op y[i]} at {@link #computedScale}, for each row i not null in {@code nulls} (null: none is). */
    abstract void compute(long[] x, long[] y, boolean[] nulls, long[] out);

    static int scaleOf(Evaluator operand) {
        return Decimals.scaleOf(operand.type());
    }
}
