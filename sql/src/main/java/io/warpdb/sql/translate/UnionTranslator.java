package io.warpdb.sql.translate;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.SetOpKind;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;

/**
 * Set operations, with each input cast to the result's column types where its physical form
 * differs: UNION ALL of any number of inputs becomes a {@link UnionNode}; UNION (distinct),
 * INTERSECT and EXCEPT, DISTINCT or ALL, become {@link SetOpNode}s, several inputs folded from
 * the left ({@code a EXCEPT b EXCEPT c} is {@code (a EXCEPT b) EXCEPT c}).
 */
final class UnionTranslator implements NodeTranslator<SetOp> {
    @Override
    public PlanNode translate(SetOp rel, PlanTranslator translator) {
        Schema schema = PlanTranslator.schemaOf(rel);
        List<PlanNode> inputs = new ArrayList<>();
        for (RelNode input : rel.getInputs()) {
            inputs.add(castTo(translator.translate(input), schema));
        }
        if (rel instanceof Union && rel.all) {
            return new UnionNode(inputs, schema);
        }
        SetOpKind kind = rel instanceof Union ? SetOpKind.UNION : rel instanceof Intersect ? SetOpKind.INTERSECT : SetOpKind.EXCEPT;
        PlanNode result = inputs.get(0);
        for (PlanNode next : inputs.subList(1, inputs.size())) {
            result = new SetOpNode(kind, rel.all, result, next, schema);
        }
        return result;
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
