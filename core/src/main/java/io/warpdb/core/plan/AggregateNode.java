package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * Groups by {@code groupKeys} (input column positions) and computes {@code aggregates}. Output:
 * the group keys, then one column per aggregate. With no group keys, exactly one row is
 * produced even for empty input (COUNT 0, other aggregates NULL).
 */
public record AggregateNode(PlanNode input, List<Integer> groupKeys, List<AggCall> aggregates, Schema schema)
        implements PlanNode {
    public AggregateNode {
        groupKeys = List.copyOf(groupKeys);
        aggregates = List.copyOf(aggregates);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new AggregateNode(inputs.get(0), groupKeys, aggregates, schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitAggregate(this);
    }

    @Override
    public String describe() {
        return "Aggregate(groupBy=" + groupKeys.stream().map(k -> "$" + k).toList() + ", aggregates=" + aggregates + ")";
    }
}
