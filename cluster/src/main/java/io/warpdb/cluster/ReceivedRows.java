package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exchange.ResidentSource;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows a node received under an exchange id, as the table a fragment's plan scans in place of
 * the subtree they replace: the batches as they came, each scan sharing their buffers (no copy,
 * and none of the storage encoding a table would do only to have it decoded by the scan), and the
 * rows that came device to device, which the GPU executor reads in place ({@link ResidentSource})
 * and any other reader as host batches. It owns both until closed.
 */
final class ReceivedRows implements ResidentSource, AutoCloseable {
    private final String name;
    private final Schema schema;
    private final List<Batch> batches = new ArrayList<>();
    private final List<ResidentRows> resident = new ArrayList<>();
    private long rows;

    private ReceivedRows(String name, Schema schema) {
        this.name = name;
        this.schema = schema;
    }

    /** Reads {@code stream} to its end (it stays the caller's to close), as rows of {@code schema}. */
    static ReceivedRows read(String name, Schema schema, BatchStream stream) {
        ReceivedRows received = new ReceivedRows(name, schema);
        try {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                if (b.rowCount() == 0) {
                    b.close();
                    continue;
                }
                received.batches.add(new Batch(schema, b.vectors(), b.dictionaries(), b.rowCount()));
                received.rows += b.rowCount();
            }
            if (stream instanceof ExchangeInbox.Received inbox) {
                for (ResidentRows r : inbox.takeDeviceRows()) {
                    received.resident.add(r);
                    received.rows += r.rowCount();
                }
            }
        } catch (RuntimeException e) {
            received.close();
            throw e;
        }
        return received;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return rows;
    }

    @Override
    public List<ResidentRows> resident() {
        return resident;
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        return scan(columns, allocator, true);
    }

    @Override
    public BatchStream scanHost(List<Integer> columns, BufferAllocator allocator) {
        return scan(columns, allocator, false);
    }

    /** The host batches' columns, shared; with {@code withResident}, the device's rows copied to the host after them. */
    private BatchStream scan(List<Integer> columns, BufferAllocator allocator, boolean withResident) {
        List<Batch> projected = new ArrayList<>(batches.size());
        try {
            for (Batch batch : batches) {
                projected.add(batch.project(columns, allocator));
            }
            if (withResident) {
                for (ResidentRows r : resident) {
                    projected.add(r.toHost(columns, allocator));
                }
            }
        } catch (RuntimeException e) {
            projected.forEach(Batch::close);
            throw e;
        }
        return Batches.of(schema.select(columns), projected);
    }

    @Override
    public void close() {
        batches.forEach(Batch::close);
        batches.clear();
        resident.forEach(ResidentRows::close);
        resident.clear();
    }
}
