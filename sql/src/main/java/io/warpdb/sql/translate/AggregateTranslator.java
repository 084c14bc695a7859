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
import io.warpdb.core.types.Schema;
import io.warpdb.sql.calcite.TypeMapping;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;

/**
 * GROUP BY with aggregates. Calcite's SUM0 (a SUM that is 0 instead of NULL on no rows) becomes
 * SUM followed by COALESCE(sum, 0).
 */
final class AggregateTranslator implements NodeTranslator<Aggregate> {
    @Override
    public PlanNode translate(Aggregate rel, PlanTranslator translator) {
        if (rel.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "GROUPING SETS, ROLLUP and CUBE are not supported yet");
        }
        PlanNode input = translator.translate(rel.getInput());
        Schema schema = PlanTranslator.schemaOf(rel);
        List<Integer> keys = rel.getGroupSet().asList();
        List<AggCall> calls = new ArrayList<>();
        List<Integer> sum0Columns = new ArrayList<>();
        for (AggregateCall call : rel.getAggCallList()) {
            if (call.filterArg >= 0) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "aggregate FILTER clauses are not supported yet");
            }
            DataType type = TypeMapping.toDataType(call.getType());
            AggFunction f = function(call);
            if (call.getAggregation().getKind() == org.apache.calcite.sql.SqlKind.SUM0) {
                sum0Columns.add(keys.size() + calls.size());
                type = type.withNullable(true);
            }
            calls.add(new AggCall(f, call.getArgList(), call.isDistinct(), type, schema.field(keys.size() + calls.size()).name()));
        }
        List<io.warpdb.core.types.Field> aggFields = new ArrayList<>(schema.fields());
        for (int c : sum0Columns) {
            aggFields.set(c, new io.warpdb.core.types.Field(schema.field(c).name(), schema.type(c).withNullable(true)));
        }
        AggregateNode agg = new AggregateNode(input, keys, calls, new Schema(aggFields));
        if (sum0Columns.isEmpty()) {
            return agg;
        }
        List<Expr> exprs = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            Expr ref = new ColumnRef(c, aggFields.get(c).type());
            exprs.add(sum0Columns.contains(c)
                    ? Call.of(Op.COALESCE, schema.type(c), ref, LiteralConverter.toLiteral(0L, schema.type(c)))
                    : ref);
        }
        return new ProjectNode(agg, exprs, schema);
    }

    private static AggFunction function(AggregateCall call) {
        switch (call.getAggregation().getKind()) {
            case COUNT:
                if (call.getArgList().size() > 1) {
                    throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "COUNT of several columns is not supported yet");
                }
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
            default:
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                        "aggregate " + call.getAggregation().getName() + " is not supported yet");
        }
    }
}
