package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/**
 * Sort-merge join (moderngpu "Relational Joins"): INNER, LEFT, RIGHT and FULL equi-joins with
 * duplicate keys on both sides.
 */
public final class GpuMergeJoin {
    private GpuMergeJoin() {
    }

    /** Why the keys of {@code node} cannot be merged on the GPU, or null when they can. */
    static String unsupportedKeys(JoinNode node) {
        return "the sort-merge join is not built yet";
    }

    /** The pairs of {@code kind} (INNER, LEFT, RIGHT or FULL) on the keys of {@code node}; its residual is not looked at. */
    static JoinPairs match(JoinKind kind, JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        throw new UnsupportedOperationException("the sort-merge join is not built yet");
    }
}
