package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Base of the pull operators: holds the query context, the output schema and the inputs, checks
 * for cancellation before every pull, and closes the inputs (after its own state) when closed.
 */
abstract class Operator implements BatchStream {
    /** Upper bound on the rows of the batches operators build. */
    static final int MAX_BATCH_ROWS = 64 * 1024;

    protected final ExecContext context;
    private final Schema schema;
    private final List<BatchStream> inputs;
    private boolean closed;

    protected Operator(ExecContext context, Schema schema, BatchStream... inputs) {
        this.context = context;
        this.schema = schema;
        this.inputs = List.of(inputs);
    }

    @Override
    public final Schema schema() {
        return schema;
    }

    protected final BatchStream input(int index) {
        return inputs.get(index);
    }

    protected final BufferAllocator allocator() {
        return context.allocator();
    }

    /** The next batch of {@code input}, or null at its end; throws 57014 once the query is cancelled. */
    protected final Batch pull(BatchStream input) {
        context.checkCancelled();
        return input.next();
    }

    /** Like {@link #pull}, skipping empty batches. */
    protected final Batch pullNonEmpty(BatchStream input) {
        Batch batch;
        while ((batch = pull(input)) != null && batch.rowCount() == 0) {
            batch.close();
        }
        return batch;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            releaseState();
        } finally {
            BatchRows.closeAll(inputs);
        }
    }

    /** Releases the batches the operator holds; called once, by {@link #close()}. */
    protected void releaseState() {
    }
}
