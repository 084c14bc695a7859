package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The GPU's {@link HashPartitioner} (found through {@link java.util.ServiceLoader}): a host batch
 * goes to the device, {@link GpuHashPartitioner} groups its rows by part there, and each part comes
 * back as a batch, sharing the input's dictionaries, for the cluster to send to its node. An empty
 * batch, more parts than {@link GpuHashPartitioner#MAX_PARTS} or a device out of memory leave
 * the batch to the CPU's partitioner, which gives every row the same part.
 */
public final class GpuBatchPartitioner implements HashPartitioner {
    @Override
    public String name() {
        return available() ? CudaDevice.get().label() : "gpu";
    }

    @Override
    public boolean available() {
        return CudaDevice.availability().supported();
    }

    @Override
    public List<Batch> split(Batch batch, List<Integer> keys, int parts, BufferAllocator allocator) {
        if (batch.rowCount() == 0 || parts > GpuHashPartitioner.MAX_PARTS) {
            return HashPartitioner.cpu().split(batch, keys, parts, allocator);
        }
        List<Batch> out = new ArrayList<>(parts);
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable input = HostToDevice.upload(batch.schema(), List.of(batch), work);
                GpuHashPartitioner.Parts grouped = GpuHashPartitioner.partition(input, keys, parts, work)) {
            for (int p = 0; p < parts; p++) {
                out.add(DeviceToHost.download(grouped.rows(), grouped.starts()[p], grouped.size(p), allocator, work));
            }
            return out;
        } catch (GpuOutOfMemoryException e) {
            out.forEach(Batch::close);
            return HashPartitioner.cpu().split(batch, keys, parts, allocator);
        } catch (RuntimeException e) {
            out.forEach(Batch::close);
            throw e;
        }
    }
}
