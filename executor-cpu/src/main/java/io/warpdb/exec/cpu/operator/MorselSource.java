package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.core.types.Schema;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * One table scan shared by the workers of a parallel {@link Pipeline}: each pull hands a batch
 * of the scan (a morsel) to whichever worker asks, so a worker that is faster, or whose morsels
 * are cheaper, takes more of them. The scan comes in parts ({@link
 * io.warpdb.core.data.TableSource#scanParts}, a segment each for storage); a worker pulls from
 * one part at a time, outside any lock, so the first pull of a part, which decodes its segment,
 * runs on as many workers at once as there are parts waiting. A part with batches left goes back
 * to the front, so workers finish a decoded segment before they open another. Once aborted (a
 * worker failed, or the consumer closed early) it hands out nothing more, so the other workers
 * finish at their next pull.
 */
final class MorselSource implements AutoCloseable {
    private final Schema schema;
    /** Parts no worker is pulling from: started ones first, then the unopened ones in row order. */
    private final Deque<BatchStream> idle;
    /** Parts a worker is pulling from now; they return to {@link #idle} unless exhausted. */
    private int busy;
    private volatile boolean aborted;
    private boolean closed;

    MorselSource(Schema schema, List<BatchStream> parts) {
        this.schema = schema;
        this.idle = new ArrayDeque<>(parts);
    }

    /** The next non-empty batch, or null at the end (or once aborted). */
    Batch next() {
        while (true) {
            BatchStream part = take();
            if (part == null) {
                return null;
            }
            Batch batch = null;
            try {
                batch = part.next();
            } finally {
                giveBack(part, batch != null);
            }
            if (batch == null) {
                continue;
            }
            if (batch.rowCount() > 0) {
                return batch;
            }
            batch.close();
        }
    }

    /** A part to pull from; waits while all remaining parts are busy; null at the end. */
    private synchronized BatchStream take() {
        while (!aborted && !closed) {
            BatchStream part = idle.pollFirst();
            if (part != null) {
                busy++;
                return part;
            }
            if (busy == 0) {
                return null;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WarpException(SqlState.QUERY_CANCELED, "query interrupted");
            }
        }
        return null;
    }

    /** Returns a part after a pull: to the front when it may hold more, closed when it ended or failed. */
    private synchronized void giveBack(BatchStream part, boolean more) {
        busy--;
        if (more) {
            idle.addFirst(part);
        } else {
            part.close();
        }
        notifyAll();
    }

    synchronized void abort() {
        aborted = true;
        notifyAll();
    }

    /** A stream over this source for one worker; closing it leaves the shared scan open. */
    BatchStream view() {
        return new BatchStream() {
            @Override
            public Schema schema() {
                return schema;
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

    /** Closes the parts; called once every worker is done with this source. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            BatchRows.closeAll(List.copyOf(idle));
            idle.clear();
            notifyAll();
        }
    }
}
