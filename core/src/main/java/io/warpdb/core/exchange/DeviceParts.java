package io.warpdb.core.exchange;

import io.warpdb.core.batch.Batch;
import java.nio.ByteBuffer;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A chunk's rows hashed into parts and kept in the device memory of the process that hashed them
 * ({@link DeviceExchange#split}). Each part goes one of three ways: to this node's own inbox
 * ({@link #take}, device to device), to a node whose process can map this one's device memory
 * ({@link #export}: a descriptor that node pulls with {@link DeviceExchange#pull}), or through
 * the host ({@link #toHost}). Closing it drops the caller's hold; exported blocks stay until
 * their holds close too.
 */
public interface DeviceParts extends AutoCloseable {
    int parts();

    int rows(int part);

    /** The bytes of part {@code part}'s columns. */
    long bytes(int part);

    /** Part {@code part} as rows of this process's device, a copy the caller owns. */
    ResidentRows take(int part);

    /** Part {@code part} as a host batch the caller owns. */
    Batch toHost(int part, BufferAllocator allocator);

    /**
     * Part {@code part} for a peer to pull: the descriptor to send it and a hold on the device
     * memory it names, which the caller closes once the peer has copied the rows (or is gone).
     */
    Exported export(int part);

    /** A part's descriptor and the hold that keeps its device memory until the peer has copied it. */
    interface Exported extends AutoCloseable {
        ByteBuffer descriptor();

        @Override
        void close();
    }

    @Override
    void close();
}
