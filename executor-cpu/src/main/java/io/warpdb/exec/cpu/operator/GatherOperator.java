package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the copies of a parallel {@link Pipeline}, one worker thread each, and hands their batches
 * to the consumer in the order they arrive (no order is promised without ORDER BY). Workers
 * start at the first pull; a bounded queue holds them back when the consumer is slower. A
 * worker's failure is rethrown to the consumer as it was. Closing stops the workers at their next
 * pull, closes the batches still queued, and waits for the workers before it returns, so that
 * nothing of the query is allocated after its close.
 */
final class GatherOperator implements BatchStream {
    /** A batch from a worker, or (batch null) the end of one worker. */
    private record Delivery(Batch batch) {
    }

    private static final Delivery WORKER_END = new Delivery(null);

    private final Schema schema;
    private final List<BatchStream> copies;
    private final Pipeline pipeline;
    private final BlockingQueue<Delivery> queue;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private boolean started;
    private int running;
    private boolean closed;

    GatherOperator(Pipeline pipeline, List<BatchStream> copies) {
        this.schema = copies.get(0).schema();
        this.copies = copies;
        this.pipeline = pipeline;
        this.queue = new ArrayBlockingQueue<>(2 * copies.size() + 2);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Batch next() {
        if (!started) {
            start();
        }
        while (running > 0) {
            Delivery d = take();
            if (d.batch() != null) {
                return d.batch();
            }
            running--;
            Workers.rethrow(failure.get());
        }
        return null;
    }

    private void start() {
        started = true;
        running = copies.size();
        for (BatchStream copy : copies) {
            Workers.submit(() -> work(copy));
        }
    }

    /** A worker: drains its copy into the queue, then closes it; always ends with {@link #WORKER_END}. */
    private void work(BatchStream copy) {
        try {
            Batch batch;
            while ((batch = copy.next()) != null) {
                put(new Delivery(batch));
            }
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
            pipeline.abort();
        } finally {
            try {
                copy.close();
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
            put(WORKER_END);
        }
    }

    /** Queues a delivery, waiting for room; the consumer takes until every worker has ended, so room comes. */
    private void put(Delivery d) {
        boolean interrupted = false;
        while (true) {
            try {
                queue.put(d);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private Delivery take() {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "query interrupted");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!started) {
            BatchRows.closeAll(copies);
            return;
        }
        pipeline.abort();
        boolean interrupted = false;
        while (running > 0) {
            try {
                Delivery d = queue.take();
                if (d.batch() != null) {
                    d.batch().close();
                } else {
                    running--;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
