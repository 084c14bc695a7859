package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;

/**
 * UNION ALL, with each input cast to the union's column types where its physical form differs;
 * UNION (distinct) groups by every column. INTERSECT and EXCEPT are rewritten into these by the
 * planner before translation.
 */
final class UnionTranslator implements NodeTranslator<SetOp> {
    @Override
    public PlanNode translate(SetOp rel, PlanTranslator translator) {
        if (!(rel instanceof Union)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, rel.kind + (rel.all ? " ALL" : "") + " is not supported yet");
        }
        Schema schema = PlanTranslator.schemaOf(rel);
        List<PlanNode> inputs = new ArrayList<>();
        for (RelNode input : rel.getInputs()) {
            inputs.add(castTo(translator.translate(input), schema));
        }
        UnionNode union = new UnionNode(inputs, schema);
        return rel.all ? union
                : new AggregateNode(union, IntStream.range(0, schema.size()).boxed().toList(), List.of(), schema);
    }

    private static PlanNode castTo(PlanNode input, Schema schema) {
        List<Expr> exprs = new ArrayList<>();
        boolean changed = false;
        for (int c = 0; c < schema.size(); c++) {
            DataType from = input.schema().type(c);
            DataType to = schema.type(c);
            boolean same = from.kind() == to.kind() && from.scale() == to.scale();
            exprs.add(same ? new ColumnRef(c, from) : Call.of(Op.CAST, to, new ColumnRef(c, from)));
            changed |= !same;
        }
        return changed ? new ProjectNode(input, exprs, schema) : input;
    }
}
