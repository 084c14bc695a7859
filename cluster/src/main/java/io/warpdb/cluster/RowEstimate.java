package io.warpdb.cluster;

import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import java.util.function.Predicate;

/**
 * A rough count of the rows a subtree yields over the whole cluster, and of their bytes, for the
 * choice of how a join's rows meet: scans from what storage keeps of the coordinator's shard
 * (times the shards for a distributed table), halved by each filter, a tenth for grouped
 * aggregates, the larger side for joins; a row's bytes from its columns' types. It only has to
 * tell a small side from a large one.
 */
final class RowEstimate {
    private static final double FILTER_SELECTIVITY = 0.5;
    private static final double GROUPS_PER_ROW = 0.1;
    /** What a string of unknown length is taken to hold; one of declared length n, half of n up to this. */
    private static final int STRING_BYTES = 16;

    /** {@link #of} times the bytes of a row of {@code node}. */
    static double bytes(PlanNode node, Predicate<PlanNode> shardLocal, int nodes) {
        double width = 0;
        for (Field field : node.schema().fields()) {
            width += bytes(field.type());
        }
        return of(node, shardLocal, nodes) * width;
    }

    /** A value's bytes as it travels: fixed widths as held; a string its code and about half its declared length. */
    private static int bytes(DataType type) {
        if (type.isWideDecimal()) {
            return 16;
        }
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER, DATE -> Integer.BYTES;
            case BIGINT, DECIMAL, DOUBLE, TIMESTAMP, INTERVAL -> Long.BYTES;
            case VARCHAR, CHAR -> Integer.BYTES + (type.precision() > 0 ? Math.min(type.precision() / 2, STRING_BYTES) : STRING_BYTES);
        };
    }

    private RowEstimate() {
    }

    /** {@code shardLocal}: whether a scan reads a distributed table's shard; {@code nodes}: how many shards there are. */
    static double of(PlanNode node, Predicate<PlanNode> shardLocal, int nodes) {
        if (node instanceof ScanNode scan) {
            return scan.table().rowsKept(scan.predicates()) * (shardLocal.test(scan) ? nodes : 1.0);
        }
        if (node instanceof ValuesNode values) {
            return values.rows().size();
        }
        if (node instanceof FilterNode filter) {
            return of(filter.input(), shardLocal, nodes) * FILTER_SELECTIVITY;
        }
        if (node instanceof AggregateNode aggregate) {
            return aggregate.groupKeys().isEmpty() ? 1 : Math.max(1, of(aggregate.input(), shardLocal, nodes) * GROUPS_PER_ROW);
        }
        if (node instanceof SortNode sort && sort.limit() >= 0) {
            return Math.min(sort.limit(), of(sort.input(), shardLocal, nodes));
        }
        if (node instanceof JoinNode join) {
            double left = of(join.left(), shardLocal, nodes);
            return join.kind().outputsRight() ? Math.max(left, of(join.right(), shardLocal, nodes)) : left;
        }
        double rows = 0;
        for (PlanNode input : node.inputs()) {
            rows += of(input, shardLocal, nodes);
        }
        return rows;
    }
}
