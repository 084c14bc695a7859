package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * The result of a subplan that the plan uses more than once (a CTE or view read twice, the same
 * join in a query and in its subquery): every node {@code SharedNode} of one {@code id} stands for
 * the same rows, computed once per execution of the statement by whichever use is read first and
 * replayed to the others (see {@link io.warpdb.core.exec.ExecContext#shared}). Made by
 * {@link SharedSubplans}.
 */
public record SharedNode(int id, PlanNode input) implements PlanNode {
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
        return new SharedNode(id, inputs.get(0));
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitShared(this);
    }

    @Override
    public String describe() {
        return "Shared(id=" + id + ")";
    }

    /** EXPLAIN's line for a use after the first, whose input is not printed again. */
    public String describeReuse() {
        return "Shared(id=" + id + ", reads the result of its first use)";
    }
}
