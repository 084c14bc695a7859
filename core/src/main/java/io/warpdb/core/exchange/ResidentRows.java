package io.warpdb.core.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Rows held in an accelerator's memory (a device table of executor-gpu, say), which only that
 * accelerator's executor reads in place; anyone else reads them as a host batch. Owned by whoever
 * holds it until closed.
 */
public interface ResidentRows extends AutoCloseable {
    Schema schema();

    int rowCount();

    /** The bytes of its columns in device memory. */
    long bytes();

    /** Columns {@code columns} (positions in {@link #schema()}) as a host batch the caller owns; these rows stay. */
    default Batch toHost(List<Integer> columns, BufferAllocator allocator) {
        return toHost(columns, 0, rowCount(), allocator);
    }

    /** As {@link #toHost(List, BufferAllocator)} for rows [{@code from}, {@code from + count}) alone. */
    Batch toHost(List<Integer> columns, int from, int count, BufferAllocator allocator);

    @Override
    void close();
}
