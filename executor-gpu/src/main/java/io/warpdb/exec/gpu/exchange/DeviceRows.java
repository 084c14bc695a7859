package io.warpdb.exec.gpu.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;
import org.apache.arrow.memory.BufferAllocator;

/** Rows an exchange moved into this process's device: a device table the GPU executor scans in place ({@code GpuScan}). */
public final class DeviceRows implements ResidentRows {
    private final DeviceTable table;

    /** Takes over {@code table}. */
    public DeviceRows(DeviceTable table) {
        this.table = table;
    }

    /** The rows' columns, shared: the caller closes what it gets. */
    public DeviceTable table() {
        return table.share();
    }

    @Override
    public Schema schema() {
        return table.schema();
    }

    @Override
    public int rowCount() {
        return table.rows();
    }

    @Override
    public long bytes() {
        return table.dataBytes();
    }

    @Override
    public Batch toHost(List<Integer> columns, int from, int count, BufferAllocator allocator) {
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable projected = new DeviceTable(table.schema().select(columns), table.rows(),
                        columns.stream().map(c -> table.column(c).share()).toList())) {
            return DeviceToHost.download(projected, from, count, allocator, work);
        }
    }

    /**
     * A new column of {@code rows} values copied device to device from {@code values} (and from
     * {@code validity} when not null), queued on {@code work}'s stream.
     */
    static DeviceColumn copy(DataType type, int rows, CUdeviceptr values, CUdeviceptr validity, DeviceWork work) {
        long bytes = (long) rows * DeviceColumn.width(type);
        DeviceBuffer copiedValues = work.allocate(bytes, "exchanged values");
        DeviceBuffer copiedValidity = null;
        try {
            if (bytes > 0) {
                JCudaDriver.cuMemcpyDtoDAsync(copiedValues.pointer(), values, bytes, work.stream().handle());
            }
            if (validity != null) {
                copiedValidity = work.allocate(rows, "exchanged validity");
                if (rows > 0) {
                    JCudaDriver.cuMemcpyDtoDAsync(copiedValidity.pointer(), validity, rows, work.stream().handle());
                }
            }
            return new DeviceColumn(type, rows, copiedValues, copiedValidity, null);
        } catch (RuntimeException e) {
            copiedValues.close();
            if (copiedValidity != null) {
                copiedValidity.close();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        table.close();
    }
}
