package io.warpdb.exec.gpu.sort;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/** Placeholder until the GPU operator lands. */
public final class GpuSort {
    private GpuSort() {
    }

    public static Support supports(SortNode node) {
        return Support.no("not yet on the GPU");
    }

    public static DeviceTable run(SortNode node, DeviceTable input, DeviceWork work) {
        throw new UnsupportedOperationException();
    }
}
