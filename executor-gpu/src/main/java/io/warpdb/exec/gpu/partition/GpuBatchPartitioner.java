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
 * the batch to the CPU's partitioner, which gives every row the same part. The cluster hands it
 * batches coalesced into chunks ({@link #splitChunk}): per call it pays an upload, four kernels,
 * a wait for the parts' sizes and a copy per part and column, which per 64K-row batch cost more
 * than the rows themselves.
 */
public final class GpuBatchPartitioner implements HashPartitioner {
    /** Input bytes per {@link #splitChunk}: 64 MiB, 4M rows of two BIGINTs, well inside a device budget. */
    private static final long CHUNK_BYTES = 64L << 20;

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

    @Override
    public long chunkBytes() {
        return CHUNK_BYTES;
    }

    /**
     * All batches in one upload and one partitioning (one wait for the parts' sizes), each part
     * downloaded in pieces of {@link DeviceToHost#BATCH_ROWS} rows, a copy per column and piece.
     */
    @Override
    public List<List<Batch>> splitChunk(List<Batch> batches, List<Integer> keys, int parts, BufferAllocator allocator) {
        long rows = batches.stream().mapToLong(Batch::rowCount).sum();
        if (rows == 0 || rows > Integer.MAX_VALUE || parts > GpuHashPartitioner.MAX_PARTS) {
            return HashPartitioner.super.splitChunk(batches, keys, parts, allocator);
        }
        List<List<Batch>> out = new ArrayList<>(parts);
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable input = HostToDevice.upload(batches.get(0).schema(), batches, work);
                GpuHashPartitioner.Parts grouped = GpuHashPartitioner.partition(input, keys, parts, work)) {
            for (int p = 0; p < parts; p++) {
                List<Batch> pieces = new ArrayList<>();
                out.add(pieces);
                for (int from = grouped.starts()[p]; from < grouped.starts()[p + 1]; from += DeviceToHost.BATCH_ROWS) {
                    int count = Math.min(DeviceToHost.BATCH_ROWS, grouped.starts()[p + 1] - from);
                    pieces.add(DeviceToHost.download(grouped.rows(), from, count, allocator, work));
                }
            }
            return out;
        } catch (GpuOutOfMemoryException e) {
            out.forEach(part -> part.forEach(Batch::close));
            return HashPartitioner.super.splitChunk(batches, keys, parts, allocator);
        } catch (RuntimeException e) {
            out.forEach(part -> part.forEach(Batch::close));
            throw e;
        }
    }
}
