package io.warpdb.core.batch;

import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.types.Schema;

/**
 * A pull-based stream of batches. {@link #next()} hands ownership of the returned batch to the
 * caller and returns null at the end. Closing releases whatever the stream still holds.
 */
public interface BatchStream extends AutoCloseable {
    Schema schema();

    Batch next();

    /**
     * The rows this stream would hand out, as rows held in an accelerator's memory, when it holds
     * them there and has handed out none (the stream then ends: {@link #next} returns null), so
     * that a reader that works on the device (a repartition's hash) skips their copy to the host;
     * null otherwise, and by default. The caller owns what it gets.
     */
    default ResidentRows takeResident() {
        return null;
    }

    @Override
    void close();
}
