package io.warpdb.core.exec;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The state one query execution needs: the allocator every batch of the query comes from (the
 * query owns it and closes it after the last batch) and the cancellation flag that operators
 * poll between batches.
 */
public final class ExecContext {
    private final BufferAllocator allocator;
    private final AtomicBoolean cancelled = new AtomicBoolean();

    public ExecContext(BufferAllocator allocator) {
        this.allocator = allocator;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public void cancel() {
        cancelled.set(true);
    }

    /** Throws SQLSTATE 57014 once the query has been cancelled. */
    public void checkCancelled() {
        if (cancelled.get()) {
            throw new WarpException(SqlState.QUERY_CANCELED, "query cancelled");
        }
    }
}
