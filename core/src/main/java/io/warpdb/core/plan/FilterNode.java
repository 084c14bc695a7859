package io.warpdb.core.plan;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.Schema;
import java.util.List;

/** Keeps the rows where {@code condition} is TRUE (not FALSE, not NULL). */
public record FilterNode(PlanNode input, Expr condition) implements PlanNode {
    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new FilterNode(inputs.get(0), condition);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitFilter(this);
    }

    @Override
    public String describe() {
        return "Filter(condition=" + condition + ")";
    }
}
