package io.warpdb.core.plan;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * Orders by {@code keys} (none: input order), then skips {@code offset} rows and keeps at most
 * {@code limit} ({@code -1}: no limit). Covers ORDER BY, LIMIT/OFFSET and top-N.
 */
public record SortNode(PlanNode input, List<SortKey> keys, long offset, long limit) implements PlanNode {
    public SortNode {
        keys = List.copyOf(keys);
    }

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
        return new SortNode(inputs.get(0), keys, offset, limit);
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visitSort(this);
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("Sort(keys=").append(keys);
        if (offset > 0) {
            sb.append(", offset=").append(offset);
        }
        if (limit >= 0) {
            sb.append(", limit=").append(limit);
        }
        return sb.append(')').toString();
    }
}
