package io.warpdb.exec.gpu.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.partition.GpuHashPartitioner;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.runtime.IpcHandles;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import jcuda.driver.CUdeviceptr;

/**
 * The GPU's {@link DeviceExchange} (found through {@link java.util.ServiceLoader}), over CUDA IPC in
 * the driver API: a process publishes its pool's arena handle ({@link IpcAddress}); a receiver maps
 * a sender's arena once ({@code cuIpcOpenMemHandle} with lazy peer access) and copies each exported
 * part out of it with {@code cuMemcpyDtoDAsync} into blocks of its own pool, which its GPU executor
 * then scans in place. Only fixed-width columns travel so (a string column's dictionary lives in
 * the sender's heap): a chunk with strings is left to the host path.
 */
public final class CudaIpcExchange implements DeviceExchange {
    /** Mappings of other processes' arenas, by handle; closed by {@link #forget}. */
    private final Map<String, CUdeviceptr> mapped = new ConcurrentHashMap<>();
    private volatile IpcAddress self;

    @Override
    public boolean available() {
        return CudaDevice.availability().supported();
    }

    @Override
    public byte[] address() {
        return self().encode();
    }

    private IpcAddress self() {
        IpcAddress address = self;
        if (address == null) {
            CudaDevice device = CudaDevice.get();
            address = new IpcAddress(IpcAddress.thisBootId(), ProcessHandle.current().pid(), device.pciBusId(), device.pool().ipcHandle());
            self = address;
        }
        return address;
    }

    @Override
    public boolean reaches(byte[] peerAddress) {
        return IpcAddress.reaches(self(), IpcAddress.decode(peerAddress), CudaDevice.get()::canAccess);
    }

    @Override
    public Optional<DeviceParts> split(List<Batch> batches, List<Integer> keys, int parts) {
        long rows = batches.stream().mapToLong(Batch::rowCount).sum();
        if (batches.isEmpty() || rows > Integer.MAX_VALUE || parts > GpuHashPartitioner.MAX_PARTS || hasStrings(batches.get(0).schema())) {
            return Optional.empty();
        }
        return partition(work -> HostToDevice.upload(batches.get(0).schema(), batches, work), 0, (int) rows, keys, parts);
    }

    @Override
    public Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts) {
        if (!(rows instanceof DeviceRows resident) || parts > GpuHashPartitioner.MAX_PARTS || hasStrings(rows.schema())) {
            return Optional.empty();
        }
        return partition(work -> resident.table(), from, count, keys, parts);
    }

    /**
     * Rows [{@code from}, {@code from + count}) of the table {@code input} gives on a new work, hashed
     * into parts kept on the device; empty when the device has no room for them.
     */
    private static Optional<DeviceParts> partition(Function<DeviceWork, DeviceTable> input, int from, int count, List<Integer> keys,
            int parts) {
        DeviceWork work = new DeviceWork(CudaDevice.get());
        try (DeviceTable table = input.apply(work)) {
            return Optional.of(new PartsOnDevice(GpuHashPartitioner.partition(table, from, count, keys, parts, work), work));
        } catch (GpuOutOfMemoryException e) {
            work.close();
            return Optional.empty();
        } catch (RuntimeException e) {
            work.close();
            throw e;
        }
    }

    private static boolean hasStrings(Schema schema) {
        return schema.fields().stream().anyMatch(f -> f.type().kind().isString());
    }

    @Override
    public ResidentRows pull(byte[] peerAddress, ByteBuffer descriptor, Schema schema) {
        IpcAddress peer = IpcAddress.decode(peerAddress);
        BlockDescriptor block = BlockDescriptor.decode(descriptor);
        if (block.columns() != schema.size()) {
            throw new IllegalArgumentException(peer + " sent " + block.columns() + " columns, not " + schema.size());
        }
        CudaDevice device = CudaDevice.get();
        CUdeviceptr arena = mapped.computeIfAbsent(peer.key(), k -> IpcHandles.map(device, peer.handle()));
        List<DeviceColumn> columns = new ArrayList<>(block.columns());
        try (DeviceWork work = new DeviceWork(device)) {
            for (int c = 0; c < block.columns(); c++) {
                if (block.widths()[c] != DeviceColumn.width(schema.type(c))) {
                    throw new IllegalArgumentException(peer + " sent column " + c + " of " + block.widths()[c] + " bytes a value, not "
                            + DeviceColumn.width(schema.type(c)));
                }
                columns.add(DeviceRows.copy(schema.type(c), block.rows(), arena.withByteOffset(block.values()[c]),
                        block.validity()[c] < 0 ? null : arena.withByteOffset(block.validity()[c]), work));
            }
            work.synchronize();
            return new DeviceRows(new DeviceTable(schema, block.rows(), columns));
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
    }

    @Override
    public void forget(byte[] peerAddress) {
        CUdeviceptr arena = mapped.remove(IpcAddress.decode(peerAddress).key());
        if (arena != null) {
            IpcHandles.unmap(CudaDevice.get(), arena);
        }
    }
}
