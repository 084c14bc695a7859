package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Rows in host memory as Arrow batches, owned here (closed with the table): an out-of-core
 * operator's input, or one partition of it.
 */
public record HostTable(Schema schema, List<Batch> batches) implements AutoCloseable {
    public HostTable {
        batches = List.copyOf(batches);
    }

    public long rows() {
        return batches.stream().mapToLong(Batch::rowCount).sum();
    }

    /** The device memory its rows take as columns: values plus a validity byte per column. */
    public long deviceBytes() {
        return rows() * rowBytes(schema);
    }

    /** Device bytes of one row of {@code schema} (values and a validity byte per column). */
    public static long rowBytes(Schema schema) {
        long bytes = 0;
        for (int c = 0; c < schema.size(); c++) {
            bytes += DeviceColumn.width(schema.type(c)) + 1;
        }
        return Math.max(1, bytes);
    }

    /**
     * The rows cut into chunks of at most {@code chunkRows} rows (batches sliced where needed),
     * each a list of new batches sharing this table's buffers; the caller closes them.
     */
    public List<List<Batch>> chunks(long chunkRows, BufferAllocator allocator) {
        List<List<Batch>> chunks = new ArrayList<>();
        List<Batch> current = new ArrayList<>();
        long inCurrent = 0;
        try {
            for (Batch b : batches) {
                int from = 0;
                while (from < b.rowCount()) {
                    int n = (int) Math.min(b.rowCount() - from, chunkRows - inCurrent);
                    current.add(Batches.slice(b, from, n, allocator));
                    from += n;
                    inCurrent += n;
                    if (inCurrent == chunkRows) {
                        chunks.add(current);
                        current = new ArrayList<>();
                        inCurrent = 0;
                    }
                }
            }
            if (!current.isEmpty()) {
                chunks.add(current);
            }
            return chunks;
        } catch (RuntimeException e) {
            current.forEach(Batch::close);
            chunks.forEach(c -> c.forEach(Batch::close));
            throw e;
        }
    }

    /** All rows of a device table copied to the host, in batches of {@link DeviceToHost#BATCH_ROWS}. */
    public static HostTable download(DeviceTable table, BufferAllocator allocator, DeviceWork work) {
        List<Batch> batches = new ArrayList<>();
        try {
            for (int from = 0; from < table.rows(); from += DeviceToHost.BATCH_ROWS) {
                batches.add(DeviceToHost.download(table, from, Math.min(DeviceToHost.BATCH_ROWS, table.rows() - from), allocator, work));
            }
        } catch (RuntimeException e) {
            batches.forEach(Batch::close);
            throw e;
        }
        return new HostTable(table.schema(), batches);
    }

    /** The rows of all {@code parts} (of {@code schema}) as one table, which takes their batches over. */
    public static HostTable concat(Schema schema, List<HostTable> parts) {
        List<Batch> batches = new ArrayList<>();
        for (HostTable part : parts) {
            batches.addAll(part.batches());
        }
        return new HostTable(schema, batches);
    }

    @Override
    public void close() {
        batches.forEach(Batch::close);
    }
}
