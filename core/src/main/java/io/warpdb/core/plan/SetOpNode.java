package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * UNION (distinct), INTERSECT and EXCEPT, DISTINCT or ALL, of two inputs with the schema's
 * column types (nullability aside). Rows are compared whole, with NULL equal to NULL, as SQL
 * set operations compare; DISTINCT outputs each row once, ALL as many times as
 * {@link SetOpKind} says. Output rows come in no particular order.
 */
public record SetOpNode(SetOpKind kind, boolean all, PlanNode left, PlanNode right, Schema schema) implements PlanNode {
    public SetOpNode {
        if (kind == SetOpKind.UNION && all) {
            throw new IllegalArgumentException("UNION ALL is a UnionNode");
        }
        if (left.schema().size() != schema.size() || right.schema().size() != schema.size()) {
            throw new IllegalArgumentException(kind + " of " + left.schema().size() + " and " + right.schema().size()
                    + " columns into " + schema.size());
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(left, right);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new SetOpNode(kind, all, inputs.get(0), inputs.get(1), schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitSetOp(this);
    }

    @Override
    public String describe() {
        return "SetOp(" + kind + (all ? " ALL" : "") + ")";
    }
}
