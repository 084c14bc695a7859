package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFrame.Bound;
import io.warpdb.core.plan.WindowFrame.BoundKind;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Window nodes for the tests: every function over a value column, the frame-sensitive ones over
 * every frame kind (ROWS and RANGE; unbounded, offset and current-row bounds; empty frames).
 */
final class WindowPlans {
    static final List<WindowFrame> FRAMES = List.of(
            WindowFrame.RANGE_TO_CURRENT_ROW,
            WindowFrame.WHOLE_PARTITION,
            new WindowFrame(false, Bound.CURRENT_ROW, Bound.UNBOUNDED_FOLLOWING),
            new WindowFrame(true, Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW),
            new WindowFrame(true, rows(BoundKind.PRECEDING, 2), rows(BoundKind.FOLLOWING, 1)),
            new WindowFrame(true, rows(BoundKind.FOLLOWING, 1), rows(BoundKind.FOLLOWING, 3)),
            new WindowFrame(true, rows(BoundKind.PRECEDING, 40), rows(BoundKind.PRECEDING, 1)),
            new WindowFrame(true, Bound.CURRENT_ROW, Bound.UNBOUNDED_FOLLOWING),
            new WindowFrame(true, rows(BoundKind.FOLLOWING, 1), rows(BoundKind.PRECEDING, 1)));

    /** RANGE frames with offsets, measured on a single numeric or DATE order key. */
    static final List<WindowFrame> RANGE_OFFSET_FRAMES = List.of(
            new WindowFrame(false, rows(BoundKind.PRECEDING, 5), rows(BoundKind.FOLLOWING, 2)),
            new WindowFrame(false, rows(BoundKind.FOLLOWING, 3), Bound.UNBOUNDED_FOLLOWING),
            new WindowFrame(false, Bound.UNBOUNDED_PRECEDING, rows(BoundKind.PRECEDING, 1)));

    private WindowPlans() {
    }

    static Bound rows(BoundKind kind, long offset) {
        return new Bound(kind, offset);
    }

    /** The ranking functions and LAG/LEAD over the value column {@code value} of type {@code type}. */
    static List<WindowCall> orderCalls(int value, DataType type) {
        ColumnRef v = new ColumnRef(value, type);
        WindowFrame none = WindowFrame.RANGE_TO_CURRENT_ROW;
        List<WindowCall> calls = new ArrayList<>(List.of(
                call(WindowFunction.ROW_NUMBER, List.of(), none, DataType.BIGINT),
                call(WindowFunction.RANK, List.of(), none, DataType.BIGINT),
                call(WindowFunction.DENSE_RANK, List.of(), none, DataType.BIGINT),
                call(WindowFunction.PERCENT_RANK, List.of(), none, DataType.DOUBLE),
                call(WindowFunction.CUME_DIST, List.of(), none, DataType.DOUBLE),
                call(WindowFunction.NTILE, List.of(Literal.ofLong(3, DataType.INTEGER)), none, DataType.INTEGER),
                call(WindowFunction.NTILE, List.of(Literal.ofLong(40, DataType.INTEGER)), none, DataType.INTEGER),
                call(WindowFunction.LAG, List.of(v), none, type),
                call(WindowFunction.LEAD, List.of(v, Literal.ofLong(2, DataType.INTEGER), v), none, type),
                call(WindowFunction.LAG, List.of(v, Literal.ofLong(3, DataType.INTEGER), Literal.ofNull(type)), none, type)));
        if (type.kind() != TypeKind.VARCHAR && type.kind() != TypeKind.BOOLEAN) {
            calls.add(call(WindowFunction.LEAD, List.of(v, Literal.ofLong(1, DataType.INTEGER), constant(type)), none, type));
        }
        return calls;
    }

    /** The frame-sensitive functions over {@code frame}: the picking and counting ones, then the sums (where they apply). */
    static List<WindowCall> frameCalls(int value, DataType type, WindowFrame frame) {
        List<WindowCall> calls = new ArrayList<>(pickedCalls(value, type, frame));
        if (sumType(type) != null) {
            calls.addAll(sumCalls(value, type, frame));
        }
        return calls;
    }

    /** The functions of {@code frame} that pick or count values. */
    static List<WindowCall> pickedCalls(int value, DataType type, WindowFrame frame) {
        ColumnRef v = new ColumnRef(value, type);
        return List.of(
                call(WindowFunction.FIRST_VALUE, List.of(v), frame, type),
                call(WindowFunction.LAST_VALUE, List.of(v), frame, type),
                call(WindowFunction.NTH_VALUE, List.of(v, Literal.ofLong(2, DataType.INTEGER)), frame, type),
                call(WindowFunction.COUNT_STAR, List.of(), frame, DataType.BIGINT),
                call(WindowFunction.COUNT, List.of(v), frame, DataType.BIGINT),
                call(WindowFunction.MIN, List.of(v), frame, type),
                call(WindowFunction.MAX, List.of(v), frame, type));
    }

    /**
     * SUM, SUM0 and AVG (as DOUBLE, and as its exact type but of a wide DECIMAL, whose averages no
     * 18-digit type holds) of {@code frame}, of a type they apply to ({@link #sumType}).
     */
    static List<WindowCall> sumCalls(int value, DataType type, WindowFrame frame) {
        ColumnRef v = new ColumnRef(value, type);
        DataType sum = sumType(type);
        List<WindowCall> calls = new ArrayList<>(List.of(
                call(WindowFunction.SUM, List.of(v), frame, sum),
                call(WindowFunction.SUM0, List.of(v), frame, sum),
                call(WindowFunction.AVG, List.of(v), frame, DataType.DOUBLE)));
        if (!type.isWideDecimal()) {
            calls.add(call(WindowFunction.AVG, List.of(v), frame, avgType(type)));
        }
        return calls;
    }

    /** SUM's type as WarpDB's planner gives it: BIGINT for integers, DECIMAL(38, s) for decimals, DOUBLE. */
    static DataType sumType(DataType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT -> DataType.BIGINT;
            case DECIMAL -> DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, type.scale());
            case DOUBLE -> DataType.DOUBLE;
            default -> null;
        };
    }

    /**
     * AVG's exact type (the planner types AVG as DOUBLE; the executors also finish it exactly): the
     * argument's for integers (truncated), a larger scale for decimals (rounded HALF_UP).
     */
    static DataType avgType(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? DataType.decimal(18, Math.min(18, type.scale() + 2)) : type;
    }

    static WindowCall call(WindowFunction function, List<Expr> args, WindowFrame frame, DataType type) {
        return new WindowCall(function, args, frame, type, function.name().toLowerCase());
    }

    /** A non-NULL constant of {@code type}: LEAD's default (a wide DECIMAL's beyond 64 bits). */
    static Literal constant(DataType type) {
        if (type.isWideDecimal()) {
            return new Literal(BigInteger.TEN.pow(type.precision() - 1).negate(), type);
        }
        return type.kind() == TypeKind.DOUBLE ? new Literal(-1.5, type) : new Literal(-7L, type);
    }

    /** The window over {@code input} with the calls' columns appended to its schema. */
    static WindowNode window(PlanNode input, List<Integer> partitionKeys, List<SortKey> orderKeys, List<WindowCall> calls) {
        List<Field> fields = new ArrayList<>(input.schema().fields());
        for (int i = 0; i < calls.size(); i++) {
            fields.add(new Field("w" + i, calls.get(i).type()));
        }
        return new WindowNode(input, partitionKeys, orderKeys, calls, new Schema(fields));
    }
}
