package io.warpdb.core.plan;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.types.Schema;
import java.util.List;

/** Computes one output column per expression; field i of {@code schema} names {@code exprs.get(i)}. */
public record ProjectNode(PlanNode input, List<Expr> exprs, Schema schema) implements PlanNode {
    public ProjectNode {
        exprs = List.copyOf(exprs);
        if (exprs.size() != schema.size()) {
            throw new IllegalArgumentException("project has " + exprs.size() + " expressions for " + schema.size() + " fields");
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new ProjectNode(inputs.get(0), exprs, schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitProject(this);
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("Project(");
        for (int i = 0; i < exprs.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(schema.field(i).name()).append('=').append(exprs.get(i));
        }
        return sb.append(')').toString();
    }
}
