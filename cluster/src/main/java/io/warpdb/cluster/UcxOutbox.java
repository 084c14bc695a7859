package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One sender's rows to another node under one exchange id over UCX: a {@link UcxChannel}'s
 * stream of batches (compressed per {@code wire.compression}), opened with {@link
 * UcxShardService#EXCHANGE}, so the receiver's service puts them into its inbox. The channel's
 * credits bound what the sender has in flight; {@link #finish} returns once the receiver
 * acknowledged all rows; a receiver that dropped the exchange (its query released) cancels the
 * stream, and the next {@link #put} fails with SQLSTATE 57014.
 *
 * <p>With a device to offer ({@code device} not null), the request carries this process's device
 * address, and where the receiver accepts it, parts hashed on the device go as device frames
 * ({@link #putDevice}): the receiver copies the rows over CUDA IPC, and this side holds each
 * part's device memory until the receiver's credit for its frame (or its end) says it has, or
 * until the stream closes (a receiver gone: its blocks are freed here).
 */
final class UcxOutbox implements Exchange.Outbox {
    private final UcxChannel channel;
    private final String peer;
    private final Duration timeout;
    private final UcxChannel.BatchSender sender;
    private final boolean offered;
    private final long lookupNanos;
    /** Exported parts not yet credited, with the number of their frame. */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private boolean ended;
    private long pulledNanos;

    private record Held(long frame, DeviceParts.Exported part) {
    }

    /**
     * Takes over {@code channel}; {@code peer}: how errors name the receiver; {@code choices}: the
     * encodings it shares with the sender's other streams; {@code timeout}: each wait for the receiver;
     * {@code offered}: whether the channel's request offered device frames; {@code lookupNanos}: the
     * time its opener took to find the receiver's worker address.
     */
    UcxOutbox(UcxChannel channel, String peer, Schema schema, boolean compressed, WireCodec.Choices choices, BufferAllocator scratch,
            Duration timeout, boolean offered, long lookupNanos) {
        this.channel = channel;
        this.lookupNanos = lookupNanos;
        this.peer = peer;
        this.timeout = timeout;
        this.offered = offered;
        try {
            this.sender = channel.sendingBatches(schema, compressed, choices, scratch, timeout);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public long put(Batch batch) {
        try (batch) {
            return sender.put(batch);
        }
    }

    @Override
    public boolean takesDevice() {
        return offered && channel.awaitAccepted(timeout);
    }

    @Override
    public long putDevice(DeviceParts parts, int part) {
        DeviceParts.Exported exported = parts.export(part);
        long size;
        try {
            size = sender.putDevice(exported.descriptor());
        } catch (RuntimeException e) {
            exported.close();
            throw e;
        }
        held.add(new Held(sender.frames(), exported));
        long credited = channel.credited();
        while (!held.isEmpty() && held.peek().frame() <= credited) {
            held.poll().part().close();
        }
        return size;
    }

    @Override
    public void finish() {
        ended = true;
        sender.end();
        ByteBuffer end = channel.awaitEnd(timeout, peer + " did not take its rows within " + timeout.toSeconds() + " s (node.timeout.seconds)");
        pulledNanos = UcxShardService.pulledNanos(end);
        releaseHeld();
    }

    @Override
    public long pulledNanos() {
        return pulledNanos;
    }

    @Override
    public long lookupNanos() {
        return lookupNanos;
    }

    private void releaseHeld() {
        while (!held.isEmpty()) {
            held.poll().part().close();
        }
    }

    @Override
    public void fail(WarpException error) {
        ended = true;
        channel.sendError(error.state(), error.getMessage());
    }

    @Override
    public void close() {
        try {
            if (!ended) {
                fail(new WarpException(SqlState.CONNECTION_FAILURE, "the sender stopped sending its rows"));
            }
        } finally {
            releaseHeld();
            sender.close();
            channel.close();
        }
    }
}
