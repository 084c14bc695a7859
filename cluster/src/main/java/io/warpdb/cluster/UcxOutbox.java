package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.time.Duration;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One sender's rows to another node under one exchange id over UCX: a {@link UcxChannel}'s
 * stream of batches (compressed per {@code wire.compression}), opened with {@link
 * UcxShardService#EXCHANGE}, so the receiver's service puts them into its inbox. The channel's
 * credits bound what the sender has in flight; {@link #finish} returns once the receiver
 * acknowledged all rows; a receiver that dropped the exchange (its query released) cancels the
 * stream, and the next {@link #put} fails with SQLSTATE 57014.
 */
final class UcxOutbox implements Exchange.Outbox {
    private final UcxChannel channel;
    private final String peer;
    private final Duration timeout;
    private final UcxChannel.BatchSender sender;
    private boolean ended;

    /**
     * Takes over {@code channel}; {@code peer}: how errors name the receiver; {@code choices}: the
     * encodings it shares with the sender's other streams; {@code timeout}: each wait for the receiver.
     */
    UcxOutbox(UcxChannel channel, String peer, Schema schema, boolean compressed, WireCodec.Choices choices, BufferAllocator scratch,
            Duration timeout) {
        this.channel = channel;
        this.peer = peer;
        this.timeout = timeout;
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
    public void finish() {
        ended = true;
        sender.end();
        channel.awaitEnd(timeout, peer + " did not take its rows within " + timeout.toSeconds() + " s (node.timeout.seconds)");
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
            sender.close();
            channel.close();
        }
    }
}
