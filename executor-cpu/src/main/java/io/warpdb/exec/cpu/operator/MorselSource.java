package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;

/**
 * One table scan shared by the workers of a parallel {@link Pipeline}: each pull hands the
 * scan's next batch (a morsel) to whichever worker asks, so a worker that is faster, or whose
 * morsels are cheaper, takes more of them. Once aborted (a worker failed, or the consumer closed
 * early) it hands out nothing more, so the other workers finish at their next pull.
 */
final class MorselSource implements AutoCloseable {
    private final BatchStream scan;
    private volatile boolean aborted;
    private boolean closed;

    MorselSource(BatchStream scan) {
        this.scan = scan;
    }

    /** The next non-empty batch, or null at the end (or once aborted). */
    synchronized Batch next() {
        if (aborted || closed) {
            return null;
        }
        Batch batch;
        while ((batch = scan.next()) != null && batch.rowCount() == 0) {
            batch.close();
        }
        return batch;
    }

    void abort() {
        aborted = true;
    }

    /** A stream over this source for one worker; closing it leaves the shared scan open. */
    BatchStream view() {
        return new BatchStream() {
            @Override
            public Schema schema() {
                return scan.schema();
            }

            @Override
            public Batch next() {
                return MorselSource.this.next();
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            scan.close();
        }
    }
}
