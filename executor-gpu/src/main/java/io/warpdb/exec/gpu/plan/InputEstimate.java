package io.warpdb.exec.gpu.plan;

import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.exec.gpu.partition.HostTable;

/**
 * What the plan alone says of a node's result size, for bringing an input of a join, aggregation
 * or sort to host memory before anything is tried in core: a scan's table rows (before its
 * predicates: an upper bound), kept by filters and projections above it; unknown (-1) for
 * anything else, whose size is known once it has run.
 */
final class InputEstimate {
    static final long UNKNOWN = -1;

    private InputEstimate() {
    }

    /** The device bytes of the node's result, at most; {@link #UNKNOWN} when the plan does not say. */
    static long bytes(PlanNode node) {
        long rows = rows(node);
        return rows == UNKNOWN ? UNKNOWN : rows * HostTable.rowBytes(node.schema());
    }

    private static long rows(PlanNode node) {
        if (node instanceof ScanNode scan) {
            return scan.table().rowCount();
        }
        if (node instanceof ValuesNode values) {
            return values.rows().size();
        }
        if (node instanceof FilterNode filter) {
            return rows(filter.input());
        }
        if (node instanceof ProjectNode project) {
            return rows(project.input());
        }
        return UNKNOWN;
    }
}
