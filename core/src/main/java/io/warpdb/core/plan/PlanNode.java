package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * A node of the physical plan: an immutable description of an operator, its inputs and its
 * output schema. Executors turn plans into {@link io.warpdb.core.batch.BatchStream}s.
 */
public sealed interface PlanNode
        permits ScanNode, ValuesNode, FilterNode, ProjectNode, AggregateNode, JoinNode, SortNode, UnionNode, SetOpNode,
        WindowNode, SharedNode {
    Schema schema();

    List<PlanNode> inputs();

    /** This node over other inputs, as many as {@link #inputs()} has; a leaf returns itself. */
    PlanNode withInputs(List<PlanNode> inputs);

    /** As {@link #withInputs}, but this node itself where each input is the one it has: a rewrite that changed nothing keeps the plan. */
    default PlanNode withInputsIfChanged(List<PlanNode> inputs) {
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i) != inputs().get(i)) {
                return withInputs(inputs);
            }
        }
        return this;
    }

    /** What {@code visitor} makes of this node: the result of its method for this node's kind. */
    <R> R accept(PlanVisitor<R> visitor);

    /** One line for EXPLAIN: the operator and its arguments, without inputs. */
    String describe();
}
