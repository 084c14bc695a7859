package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * Window functions of one window specification: the input rows, each with one more column per
 * call, computed over the rows of its partition (equal {@code partitionKeys}, NULLs forming one
 * partition) in {@code orderKeys} order. The calls share the partitioning and the order (so one
 * sort serves them all); each has its own frame. Output: the input columns, then one column per
 * call; rows come in no particular order.
 */
public record WindowNode(PlanNode input, List<Integer> partitionKeys, List<SortKey> orderKeys, List<WindowCall> calls,
        Schema schema) implements PlanNode {
    public WindowNode {
        partitionKeys = List.copyOf(partitionKeys);
        orderKeys = List.copyOf(orderKeys);
        calls = List.copyOf(calls);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public PlanNode withInputs(List<PlanNode> inputs) {
        return new WindowNode(inputs.get(0), partitionKeys, orderKeys, calls, schema);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitWindow(this);
    }

    @Override
    public String describe() {
        return "Window(partitionBy=" + partitionKeys.stream().map(k -> "$" + k).toList() + ", orderBy=" + orderKeys
                + ", calls=" + calls + ")";
    }
}
