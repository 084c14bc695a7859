package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * UNION ALL: every row of every input, input after input. Inputs have the schema's column
 * types (nullability aside). DISTINCT set operations are planned as aggregates over this.
 */
public record UnionNode(List<PlanNode> inputs, Schema schema) implements PlanNode {
    public UnionNode {
        inputs = List.copyOf(inputs);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new UnionNode(inputs, schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitUnion(this);
    }

    @Override
    public String describe() {
        return "UnionAll(inputs=" + inputs.size() + ")";
    }
}
