package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import java.util.List;

/**
 * One use of a shared subplan: the first use to be read runs the subplan to its end into batches
 * that the statement's context owns (see {@link ExecContext#shared}); every use, that one
 * included, streams them as batches of its own that share their buffers (Arrow reference counts),
 * so a use may close what it read while the others still read theirs.
 */
final class SharedReadOperator implements BatchStream {
    private final SharedNode shared;
    private final ExecContext context;
    private Rows rows;
    private int next;

    SharedReadOperator(SharedNode shared, ExecContext context) {
        this.shared = shared;
        this.context = context;
    }

    @Override
    public Schema schema() {
        return shared.schema();
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        if (rows == null) {
            // Computed when first pulled, not when built: a use that is never read (an empty join side) costs nothing.
            rows = context.shared(CpuExecutorProvider.NAME, shared.id(),
                    () -> new Rows(Batches.readAll(Operators.input(shared.input(), context), context::checkCancelled)));
        }
        return rows.copy(next++, context);
    }

    @Override
    public void close() {
        // The shared batches belong to the context; the copies handed out belong to whoever read them.
    }

    /** The subplan's result, owned by the statement's context. */
    private static final class Rows implements AutoCloseable {
        private final List<Batch> batches;

        Rows(List<Batch> batches) {
            this.batches = batches;
        }

        /** Batch {@code index} as a batch of the reader's own, or null past the last; readers on other threads copy one at a time. */
        synchronized Batch copy(int index, ExecContext context) {
            if (index >= batches.size()) {
                return null;
            }
            Batch batch = batches.get(index);
            return Batches.slice(batch, 0, batch.rowCount(), context.allocator());
        }

        @Override
        public synchronized void close() {
            batches.forEach(Batch::close);
        }
    }
}
