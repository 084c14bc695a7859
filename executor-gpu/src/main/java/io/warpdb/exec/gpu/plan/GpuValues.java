package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.ConstantRows;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Constant rows (VALUES; TPC-DS's ROLLUPs union them in as their grand-total rows) on the device:
 * built on the host as one batch, as the CPU executor builds them, and copied in, so the operators
 * above stay on the GPU.
 */
final class GpuValues {
    private GpuValues() {
    }

    static DeviceTable run(ValuesNode values, BufferAllocator allocator, DeviceWork work) {
        try (Batch batch = ConstantRows.batch(values.schema(), values.rows(), 0, values.rows().size(), allocator)) {
            return HostToDevice.upload(values.schema(), List.of(batch), work);
        }
    }
}
