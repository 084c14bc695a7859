package io.warpdb.core.plan;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.Schema;
import java.util.List;

/** Constant rows (INSERT ... VALUES, SELECT without FROM). Each literal has its column's type. */
public record ValuesNode(Schema schema, List<List<Literal>> rows) implements PlanNode {
    public ValuesNode {
        rows = rows.stream().map(List::copyOf).toList();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return this;
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitValues(this);
    }

    @Override
    public String describe() {
        return "Values(rows=" + rows.size() + ")";
    }
}
