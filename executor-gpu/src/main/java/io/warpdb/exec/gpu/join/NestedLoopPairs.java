package io.warpdb.exec.gpu.join;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GridSize;

/**
 * The pairs of a join without equality keys: every left row with every right row (the M-BSP
 * PRODUCT of Diamos et al.), which the join's condition then filters. Meant for a small side,
 * such as the single row of a scalar sub-query's aggregate.
 */
final class NestedLoopPairs {
    private NestedLoopPairs() {
    }

    static JoinPairs cross(int leftRows, int rightRows, DeviceWork work) {
        long count = (long) leftRows * rightRows;
        if (count > Integer.MAX_VALUE) {
            throw new GpuOutOfMemoryException("a GPU nested-loop join of " + leftRows + " x " + rightRows
                    + " rows exceeds 2^31-1 pairs");
        }
        DeviceBuffer leftIds = work.allocate(count * Integer.BYTES, "nested-loop left row ids");
        try {
            DeviceBuffer rightIds = work.allocate(count * Integer.BYTES, "nested-loop right row ids");
            work.kernel(JoinCompletion.MODULE, "cross_pairs").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK,
                    0, leftIds, rightIds, rightRows, count);
            return new JoinPairs(leftIds, rightIds, (int) count);
        } catch (RuntimeException e) {
            leftIds.close();
            throw e;
        }
    }
}
