package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.calcite.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * GROUP BY with aggregates; {@code FILTER (WHERE ...)} clauses become CASE columns below it. Two Calcite aggregates become a projection over the aggregate:
 * SUM0 (a SUM that is 0 instead of NULL on no rows) is SUM then COALESCE(sum, 0), and
 * LITERAL_AGG (a constant per group, which sub-query removal uses as a match marker) is the
 * constant itself.
 */
final class AggregateTranslator implements NodeTranslator<Aggregate> {
    @Override
    public PlanNode translate(Aggregate rel, PlanTranslator translator) {
        if (rel.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "GROUPING SETS, ROLLUP and CUBE are not supported yet");
        }
        PlanNode input = translator.translate(rel.getInput());
        Schema schema = PlanTranslator.schemaOf(rel);
        List<Expr> filteredArgs = new ArrayList<>();
        List<Integer> keys = rel.getGroupSet().asList();
        List<Field> aggFields = new ArrayList<>(schema.fields().subList(0, keys.size()));
        List<AggCall> calls = new ArrayList<>();
        List<Expr> outputs = new ArrayList<>();
        boolean needsProjection = false;
        for (int k = 0; k < keys.size(); k++) {
            outputs.add(new ColumnRef(k, schema.type(k)));
        }
        for (AggregateCall call : rel.getAggCallList()) {
            Field field = schema.field(outputs.size());
            SqlKind kind = call.getAggregation().getKind();
            if (kind == SqlKind.LITERAL_AGG) {
                outputs.add(LiteralConverter.toLiteral(LiteralConverter.javaValue((RexLiteral) call.rexList.get(0)), field.type()));
                needsProjection = true;
                continue;
            }
            DataType type = kind == SqlKind.SUM0 ? field.type().withNullable(true) : field.type();
            Expr ref = new ColumnRef(aggFields.size(), type);
            aggFields.add(new Field(field.name(), type));
            AggFunction function = function(call);
            List<Integer> args = call.getArgList();
            if (args.size() > 1) {
                // COUNT([DISTINCT] a, b, ...) counts the rows (combinations) where no argument is NULL: one key column.
                filteredArgs.add(RowKeys.of(args.stream().map(a -> (Expr) new ColumnRef(a, input.schema().type(a))).toList()));
                args = List.of(input.schema().size() + filteredArgs.size() - 1);
            }
            if (call.filterArg >= 0) {
                // agg(x) FILTER (WHERE f) is agg(CASE WHEN f THEN x END): the CASE is computed below the aggregate.
                Expr value = args.isEmpty() ? LiteralConverter.toLiteral(1L, DataType.INTEGER)
                        : args.get(0) >= input.schema().size() ? filteredArgs.get(filteredArgs.size() - 1)
                        : new ColumnRef(args.get(0), input.schema().type(args.get(0)));
                Expr condition = new ColumnRef(call.filterArg, input.schema().type(call.filterArg));
                DataType valueType = value.type().withNullable(true);
                filteredArgs.add(Call.of(Op.CASE, valueType, condition, value, io.warpdb.core.expr.Literal.ofNull(valueType)));
                args = List.of(input.schema().size() + filteredArgs.size() - 1);
                function = function == AggFunction.COUNT_STAR ? AggFunction.COUNT : function;
            }
            calls.add(new AggCall(function, args, call.isDistinct(), type, field.name()));
            if (kind == SqlKind.SUM0) {
                outputs.add(Call.of(Op.COALESCE, field.type(), ref, LiteralConverter.toLiteral(0L, field.type())));
                needsProjection = true;
            } else {
                outputs.add(ref);
            }
        }
        AggregateNode agg = new AggregateNode(withColumns(input, filteredArgs), keys, calls, new Schema(aggFields));
        return needsProjection ? new ProjectNode(agg, outputs, schema) : agg;
    }

    /** The input with extra computed columns after its own. */
    private static PlanNode withColumns(PlanNode input, List<Expr> extra) {
        if (extra.isEmpty()) {
            return input;
        }
        List<Expr> exprs = new ArrayList<>();
        List<Field> fields = new ArrayList<>(input.schema().fields());
        for (int c = 0; c < input.schema().size(); c++) {
            exprs.add(new ColumnRef(c, input.schema().type(c)));
        }
        for (Expr e : extra) {
            exprs.add(e);
            fields.add(new Field("$filtered" + fields.size(), e.type()));
        }
        return new ProjectNode(input, exprs, new Schema(fields));
    }

    private static AggFunction function(AggregateCall call) {
        switch (call.getAggregation().getKind()) {
            case COUNT:
                return call.getArgList().isEmpty() ? AggFunction.COUNT_STAR : AggFunction.COUNT;
            case SUM:
            case SUM0:
                return AggFunction.SUM;
            case AVG:
                return AggFunction.AVG;
            case MIN:
                return AggFunction.MIN;
            case MAX:
                return AggFunction.MAX;
            case SINGLE_VALUE:
                return AggFunction.SINGLE_VALUE;
            case VAR_POP:
                return AggFunction.VAR_POP;
            case VAR_SAMP:
                return AggFunction.VAR_SAMP;
            case STDDEV_POP:
                return AggFunction.STDDEV_POP;
            case STDDEV_SAMP:
                return AggFunction.STDDEV_SAMP;
            default:
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                        "aggregate " + call.getAggregation().getName() + " is not supported yet");
        }
    }
}
