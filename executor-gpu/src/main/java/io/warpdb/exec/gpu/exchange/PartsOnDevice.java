package io.warpdb.exec.gpu.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.partition.GpuHashPartitioner;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A chunk's parts as the GPU partitioner left them: one device table, part p its rows [starts[p],
 * starts[p + 1]). The partitioner waited for its kernels (it read the parts' sizes back), so a
 * peer may copy the rows as soon as it has a descriptor. The table is freed when the owner and
 * every exported part's hold have closed.
 */
final class PartsOnDevice implements DeviceParts {
    private final GpuHashPartitioner.Parts grouped;
    private final DeviceWork work;
    private final AtomicInteger holds = new AtomicInteger(1);

    /** Takes over {@code grouped} and {@code work}. */
    PartsOnDevice(GpuHashPartitioner.Parts grouped, DeviceWork work) {
        this.grouped = grouped;
        this.work = work;
    }

    @Override
    public int parts() {
        return grouped.starts().length - 1;
    }

    @Override
    public int rows(int part) {
        return grouped.size(part);
    }

    @Override
    public long bytes(int part) {
        return descriptor(part).bytes();
    }

    @Override
    public ResidentRows take(int part) {
        DeviceTable rows = grouped.rows();
        int from = grouped.starts()[part];
        List<DeviceColumn> columns = new ArrayList<>();
        try {
            for (DeviceColumn c : rows.columns()) {
                int width = DeviceColumn.width(c.type());
                columns.add(DeviceRows.copy(c.type(), rows(part), c.values().pointer((long) from * width),
                        c.validity() == null ? null : c.validity().pointer(from), work));
            }
            work.synchronize();
            return new DeviceRows(new DeviceTable(rows.schema(), rows(part), columns));
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
    }

    @Override
    public Batch toHost(int part, BufferAllocator allocator) {
        return DeviceToHost.download(grouped.rows(), grouped.starts()[part], rows(part), allocator, work);
    }

    @Override
    public Exported export(int part) {
        holds.incrementAndGet();
        BlockDescriptor block = descriptor(part);
        return new Exported() {
            private boolean closed;

            @Override
            public ByteBuffer descriptor() {
                return block.encode();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    release();
                }
            }
        };
    }

    private BlockDescriptor descriptor(int part) {
        List<DeviceColumn> columns = grouped.rows().columns();
        int from = grouped.starts()[part];
        int[] widths = new int[columns.size()];
        long[] values = new long[columns.size()];
        long[] validity = new long[columns.size()];
        for (int c = 0; c < widths.length; c++) {
            DeviceColumn column = columns.get(c);
            widths[c] = DeviceColumn.width(column.type());
            values[c] = column.values().arenaOffset() + (long) from * widths[c];
            validity[c] = column.validity() == null ? -1 : column.validity().arenaOffset() + from;
        }
        return new BlockDescriptor(rows(part), widths, values, validity);
    }

    private void release() {
        if (holds.decrementAndGet() == 0) {
            try {
                grouped.close();
            } finally {
                work.close();
            }
        }
    }

    @Override
    public void close() {
        release();
    }
}
