package io.warpdb.sql;

import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a statement produced: an update count (DDL, INSERT, SET: 0 or the rows written) or a
 * query's batches. Closing releases the batches not yet read and the query's allocator.
 */
public final class StatementResult implements AutoCloseable {
    private final long updateCount;
    private final Schema schema;
    private final BatchStream batches;
    private final BufferAllocator allocator;

    private StatementResult(long updateCount, Schema schema, BatchStream batches, BufferAllocator allocator) {
        this.updateCount = updateCount;
        this.schema = schema;
        this.batches = batches;
        this.allocator = allocator;
    }

    public static StatementResult update(long count) {
        return new StatementResult(count, null, null, null);
    }

    /** A query result; it takes ownership of the stream and of the allocator its batches come from. */
    public static StatementResult query(Schema schema, BatchStream batches, BufferAllocator allocator) {
        return new StatementResult(-1, schema, batches, allocator);
    }

    public boolean isQuery() {
        return batches != null;
    }

    /** Rows written (or 0 for DDL); -1 for a query. */
    public long updateCount() {
        return updateCount;
    }

    /** Result columns of a query; null otherwise. */
    public Schema schema() {
        return schema;
    }

    /** The query's batches, each owned by the caller once pulled; null for non-queries. */
    public BatchStream batches() {
        return batches;
    }

    /**
     * Reads every remaining row of a query as the Java values {@link Batch#getObject} gives (the
     * batches are closed as they are read): for tools and tests that want the answer as values.
     */
    public List<List<Object>> rows() {
        return Batches.drainRows(batches);
    }

    @Override
    public void close() {
        if (batches != null) {
            try {
                batches.close();
            } finally {
                allocator.close();
            }
        }
    }
}
