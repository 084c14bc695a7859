package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The rows a node loads for one owner ({@link CopyRange}), handed from the thread that hashes them
 * to the thread that stages them there, as the stream the staging reads. Bounded, so that an owner
 * slower to take its rows holds the parse back instead of filling this node's memory. The hashing
 * side ends it with {@link #finish} or {@link #fail} (the staging then fails, and stages nothing);
 * the staging side closes it when done, after which {@link #put} refuses rows.
 */
final class StagingQueue implements BatchStream {
    private static final int CAPACITY = 4;
    private static final long OFFER_MILLIS = 100;

    /** A batch, the end, or the failure that ends the stream. */
    private record Item(Batch batch, WarpException failure) {
    }

    private static final Item END = new Item(null, null);

    private final Schema schema;
    private final BlockingQueue<Item> items = new ArrayBlockingQueue<>(CAPACITY);
    private volatile boolean closed;
    private boolean ended;
    private long rowsReturned;

    StagingQueue(Schema schema) {
        this.schema = schema;
    }

    /** Hands {@code batch} to the staging (which then owns it); false, with the batch closed, once the staging has ended. */
    boolean put(Batch batch) {
        if (!offer(new Item(batch, null))) {
            batch.close();
            return false;
        }
        return true;
    }

    /** Ends the stream: the staging commits what it took. */
    void finish() {
        offer(END);
    }

    /** Ends the stream with {@code failure}: the staging fails with its SQLSTATE and stages nothing. */
    void fail(RuntimeException failure) {
        offer(new Item(null, new WarpException(failure instanceof WarpException w ? w.state() : SqlState.INTERNAL_ERROR,
                "the load stopped: " + failure.getMessage(), failure)));
    }

    private boolean offer(Item item) {
        try {
            while (!closed) {
                if (items.offer(item, OFFER_MILLIS, TimeUnit.MILLISECONDS)) {
                    if (closed) {
                        drain(); // the staging closed meanwhile: nobody takes it
                    }
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while handing rows to a staging");
        }
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Batch next() {
        if (ended) {
            return null;
        }
        Item item;
        try {
            item = items.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while waiting for rows to stage");
        }
        if (item.failure() != null) {
            throw item.failure();
        }
        if (item.batch() == null) {
            ended = true;
            return null;
        }
        rowsReturned += item.batch().rowCount();
        return item.batch();
    }

    /** The rows the staging took: all of this owner's once {@link #next} returned null. */
    long rowsReturned() {
        return rowsReturned;
    }

    /** The staging ended: rows still queued, or handed in later, are dropped. */
    @Override
    public void close() {
        closed = true;
        drain();
    }

    private void drain() {
        for (Item item = items.poll(); item != null; item = items.poll()) {
            if (item.batch() != null) {
                item.batch().close();
            }
        }
    }
}
