package io.warpdb.core.batch;

import io.warpdb.core.types.Schema;

/**
 * A pull-based stream of batches. {@link #next()} hands ownership of the returned batch to the
 * caller and returns null at the end. Closing releases whatever the stream still holds.
 */
public interface BatchStream extends AutoCloseable {
    Schema schema();

    Batch next();

    @Override
    void close();
}
