package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/** Placeholder until the GPU operator lands. */
public final class GpuAggregate {
    private GpuAggregate() {
    }

    public static Support supports(AggregateNode node) {
        return Support.no("not yet on the GPU");
    }

    public static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work) {
        throw new UnsupportedOperationException();
    }
}
