package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.sql.calcite.TypeMapping;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Window functions: Calcite's Window (made from the RexOvers of a projection) has a group per
 * window specification; groups with the same partitioning and order become one
 * {@link WindowNode} (one sort serves them), stacked one above the other, and a projection puts
 * the calls back in Calcite's order where the merging moved them. Operands that are constants
 * (LAG's offset and default, NTILE's buckets, frame offsets) come from the Window's constants.
 */
final class WindowTranslator implements NodeTranslator<Window> {
    @Override
    public PlanNode translate(Window rel, PlanTranslator translator) {
        PlanNode node = translator.translate(rel.getInput());
        int inputCount = rel.getInput().getRowType().getFieldCount();
        Schema relSchema = PlanTranslator.schemaOf(rel);
        Map<List<Object>, List<Window.Group>> bySpecification = new LinkedHashMap<>();
        for (Window.Group group : rel.groups) {
            bySpecification.computeIfAbsent(List.of(group.keys, group.orderKeys), k -> new ArrayList<>()).add(group);
        }
        // Where each of Calcite's calls (numbered across groups) lands in the stacked nodes' output.
        List<Integer> placed = new ArrayList<>();
        int callNumber = 0;
        Map<Window.Group, Integer> firstCall = new LinkedHashMap<>();
        for (Window.Group group : rel.groups) {
            firstCall.put(group, callNumber);
            callNumber += group.aggCalls.size();
        }
        for (List<Window.Group> groups : bySpecification.values()) {
            Window.Group first = groups.get(0);
            List<Integer> partitionKeys = first.keys.asList();
            List<SortKey> orderKeys = first.orderKeys.getFieldCollations().stream().map(SortTranslator::sortKey).toList();
            List<WindowCall> calls = new ArrayList<>();
            List<Field> fields = new ArrayList<>(node.schema().fields());
            for (Window.Group group : groups) {
                List<Window.RexWinAggCall> aggCalls = group.aggCalls;
                for (int c = 0; c < aggCalls.size(); c++) {
                    int ordinal = firstCall.get(group) + c;
                    Field field = relSchema.field(inputCount + ordinal);
                    calls.add(call(aggCalls.get(c), frame(group, rel, inputCount, orderKeys, node.schema()), field, rel,
                            inputCount, node.schema()));
                    fields.add(field);
                    placed.add(ordinal);
                }
            }
            node = new WindowNode(node, partitionKeys, orderKeys, calls, new Schema(fields));
        }
        return inCalciteOrder(node, inputCount, placed.stream().mapToInt(Integer::intValue).toArray(), relSchema);
    }

    /** The stacked nodes' output with the calls in Calcite's order ({@code placed[i]}: the Calcite ordinal of output call i). */
    private static PlanNode inCalciteOrder(PlanNode node, int inputCount, int[] placed, Schema relSchema) {
        boolean inOrder = true;
        for (int i = 0; i < placed.length; i++) {
            inOrder &= placed[i] == i;
        }
        if (inOrder) {
            return node;
        }
        Expr[] exprs = new Expr[inputCount + placed.length];
        for (int c = 0; c < inputCount; c++) {
            exprs[c] = new ColumnRef(c, node.schema().type(c));
        }
        for (int i = 0; i < placed.length; i++) {
            exprs[inputCount + placed[i]] = new ColumnRef(inputCount + i, node.schema().type(inputCount + i));
        }
        return new ProjectNode(node, List.of(exprs), relSchema);
    }

    private static WindowCall call(Window.RexWinAggCall call, WindowFrame frame, Field field, Window rel, int inputCount,
            Schema input) {
        WindowFunction function = function(call);
        if (call.distinct) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "DISTINCT in a window function is not supported yet");
        }
        if (call.ignoreNulls) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "IGNORE NULLS is not supported yet");
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            args.add(operand(operand, rel, inputCount, input));
        }
        return new WindowCall(function, args, frame, field.type(), field.name());
    }

    /** An operand: an input column, or one of the Window's constants. */
    private static Expr operand(RexNode operand, Window rel, int inputCount, Schema input) {
        if (!(operand instanceof RexInputRef ref)) {
            throw new IllegalStateException("window operand " + operand + " is neither a column nor a constant");
        }
        if (ref.getIndex() < inputCount) {
            return new ColumnRef(ref.getIndex(), input.type(ref.getIndex()));
        }
        RexLiteral constant = rel.constants.get(ref.getIndex() - inputCount);
        return LiteralConverter.toLiteral(LiteralConverter.javaValue(constant), TypeMapping.toDataType(constant.getType()));
    }

    private static WindowFunction function(Window.RexWinAggCall call) {
        switch (call.getOperator().getKind()) {
            case ROW_NUMBER:
                return WindowFunction.ROW_NUMBER;
            case RANK:
                return WindowFunction.RANK;
            case DENSE_RANK:
                return WindowFunction.DENSE_RANK;
            case PERCENT_RANK:
                return WindowFunction.PERCENT_RANK;
            case CUME_DIST:
                return WindowFunction.CUME_DIST;
            case NTILE:
                return WindowFunction.NTILE;
            case LAG:
                return WindowFunction.LAG;
            case LEAD:
                return WindowFunction.LEAD;
            case FIRST_VALUE:
                return WindowFunction.FIRST_VALUE;
            case LAST_VALUE:
                return WindowFunction.LAST_VALUE;
            case NTH_VALUE:
                return WindowFunction.NTH_VALUE;
            case COUNT:
                if (call.getOperands().size() > 1) {
                    throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "COUNT of several columns is not supported yet");
                }
                return call.getOperands().isEmpty() ? WindowFunction.COUNT_STAR : WindowFunction.COUNT;
            case SUM:
                return WindowFunction.SUM;
            case SUM0:
                return WindowFunction.SUM0;
            case AVG:
                return WindowFunction.AVG;
            case MIN:
                return WindowFunction.MIN;
            case MAX:
                return WindowFunction.MAX;
            default:
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                        "window function " + call.getOperator().getName() + " is not supported yet");
        }
    }

    private static WindowFrame frame(Window.Group group, Window rel, int inputCount, List<SortKey> orderKeys, Schema input) {
        DataType rangeKey = group.isRows || orderKeys.size() != 1 ? null : input.type(orderKeys.get(0).column());
        return new WindowFrame(group.isRows, bound(group.lowerBound, group.isRows, rangeKey, rel, inputCount),
                bound(group.upperBound, group.isRows, rangeKey, rel, inputCount));
    }

    private static WindowFrame.Bound bound(RexWindowBound bound, boolean rows, DataType rangeKey, Window rel, int inputCount) {
        if (bound.isCurrentRow()) {
            return WindowFrame.Bound.CURRENT_ROW;
        }
        if (bound.isUnbounded()) {
            return bound.isPreceding() ? WindowFrame.Bound.UNBOUNDED_PRECEDING : WindowFrame.Bound.UNBOUNDED_FOLLOWING;
        }
        WindowFrame.BoundKind kind = bound.isPreceding() ? WindowFrame.BoundKind.PRECEDING : WindowFrame.BoundKind.FOLLOWING;
        RexNode offsetNode = bound.getOffset();
        RexLiteral literal = offsetNode instanceof RexInputRef ref && ref.getIndex() >= inputCount
                ? rel.constants.get(ref.getIndex() - inputCount) : offsetNode instanceof RexLiteral l ? l : null;
        if (literal == null || literal.isNull()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a frame offset must be a constant");
        }
        BigDecimal offset = offsetValue(literal, rows, rangeKey);
        if (offset.signum() < 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a frame offset must not be negative");
        }
        try {
            return new WindowFrame.Bound(kind, offset.longValueExact());
        } catch (ArithmeticException e) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "a frame offset of " + literal
                    + " does not fit the ORDER BY key's units; it is not supported yet");
        }
    }

    /**
     * The offset in the units the executor measures: rows for ROWS; for RANGE, the order key's
     * physical units (unscaled for DECIMAL, days for DATE, microseconds for TIMESTAMP).
     */
    private static BigDecimal offsetValue(RexLiteral literal, boolean rows, DataType rangeKey) {
        SqlTypeName literalType = literal.getType().getSqlTypeName();
        if (literalType.getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME) {
            if (rows || rangeKey == null || !rangeKey.kind().isDatetime()) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "an interval frame offset needs one DATE or TIMESTAMP ORDER BY key");
            }
            BigDecimal millis = literal.getValueAs(BigDecimal.class);
            return rangeKey.kind() == TypeKind.DATE ? millis.divide(BigDecimal.valueOf(86_400_000L)) : millis.movePointRight(3);
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (rows) {
            return value;
        }
        if (rangeKey == null || !rangeKey.kind().isExactNumeric()) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "a RANGE frame with an offset needs one INTEGER, BIGINT, DECIMAL or DATE ORDER BY key");
        }
        return value.movePointRight(rangeKey.kind() == TypeKind.DECIMAL ? rangeKey.scale() : 0);
    }
}
