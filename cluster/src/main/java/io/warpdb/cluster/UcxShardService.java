package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.exec.DaemonThreads;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A node's shard service over UCX, the counterpart of {@link ShardService}'s DoGet and DoPut: a
 * channel opened with {@link #FETCH} runs its ticket on this shard ({@link ShardService#open}: a
 * query, a fragment, or a byte range of a file to load) and streams the rows back; one
 * opened with {@link #STAGE} ({@code load/table}) receives rows and stages them, answering with
 * an end frame once staged; one opened with {@link #EXCHANGE} ({@code <exchange id> <sender id>})
 * carries a sender's rows between shards into this node's {@link ExchangeInbox}, answering with an
 * end frame once they are all there (a sender's error frame fails the inbox's reader with its
 * SQLSTATE; rows for a released query cancel the sender); one opened with {@link #HELLO} only
 * tells this node the opener's worker address. Errors go back as error frames carrying
 * the SQLSTATE. Each request runs on a thread of its own, off the transport's progress thread.
 */
final class UcxShardService implements UcxTransport.Acceptor, AutoCloseable {
    static final byte FETCH = 1;
    static final byte STAGE = 2;
    static final byte EXCHANGE = 3;
    /** A node telling this one its worker address (its OPEN frame carries it, which the transport keeps); answered with an end frame. */
    static final byte HELLO = 4;
    /**
     * How many node timeouts a shard waits for room to send its next batch: the coordinator reads
     * the shards' streams one after another, so a shard waits as long as the others take; a
     * coordinator that is gone is noticed sooner, by UCX.
     */
    private static final int SEND_PATIENCE_TIMEOUTS = 10;

    private final ShardStore shard;
    private final BufferAllocator allocator;
    /** The node's exchange, which the fragments this service runs send and receive rows through. */
    private final Exchange exchange;
    /** Where the rows other nodes send this one under exchange ids go. */
    private final ExchangeInbox inbox;
    private final List<Member> members;
    private final Duration timeout;
    private final boolean compressed;
    /** How device frames are pulled into this node's device, where it has one that can. */
    private final Optional<DeviceExchange> device;
    private final ExecutorService requests = DaemonThreads.cachedPool("ucx-shard-request");

    /**
     * {@code compressed}: whether the rows this node answers fetches with are compressed ({@link
     * WireCompression#toAnyOf}: the asking node is not known in advance); {@code
     * device}: how it pulls rows other processes of its host offer device to device, if it does.
     */
    UcxShardService(ShardStore shard, BufferAllocator allocator, Exchange exchange, ExchangeInbox inbox, List<Member> members,
            Duration timeout, boolean compressed, Optional<DeviceExchange> device) {
        this.shard = shard;
        this.allocator = allocator;
        this.exchange = exchange;
        this.inbox = inbox;
        this.members = members;
        this.timeout = timeout;
        this.compressed = compressed;
        this.device = device;
    }

    /** A request: its kind, then its UTF-8 text. */
    static ByteBuffer request(byte kind, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + bytes.length).put(kind).put(bytes).flip();
    }

    /** The request of an {@link #EXCHANGE} channel: {@code sender}'s rows under {@code exchange}. */
    static ByteBuffer exchangeRequest(String exchange, String sender) {
        return request(EXCHANGE, exchange + " " + sender);
    }

    /**
     * As {@link #exchangeRequest(String, String)}, offering device frames: {@code deviceAddress} is
     * where the sender's device memory is ({@link DeviceExchange#address}); the receiver answers
     * with an accept frame.
     */
    static ByteBuffer exchangeRequest(String exchange, String sender, byte[] deviceAddress) {
        return request(EXCHANGE, exchange + " " + sender + " " + HexFormat.of().formatHex(deviceAddress));
    }

    @Override
    public void accept(UcxChannel channel, ByteBuffer request) {
        byte kind = request.get();
        String text = StandardCharsets.UTF_8.decode(request).toString();
        requests.execute(() -> serve(channel, kind, text));
    }

    private void serve(UcxChannel channel, byte kind, String text) {
        try {
            if (kind == FETCH) {
                try (BatchStream rows = ShardService.open(text, shard, exchange, members, allocator, timeout)) {
                    channel.sendBatches(rows, compressed, allocator, timeout.multipliedBy(SEND_PATIENCE_TIMEOUTS));
                }
            } else if (kind == STAGE) {
                String[] target = ShardService.awaitLog(text, shard, timeout).split("/", 2);
                try (UcxChannel.ReceivedBatches rows = channel.receiveBatches(allocator, timeout, channel.peerName()
                        + " sent no rows within " + timeout.toSeconds() + " s")) {
                    shard.stage(target[0], target[1], rows);
                }
                channel.send(UcxChannel.END, ByteBuffer.allocate(0), timeout);
            } else if (kind == HELLO) {
                channel.send(UcxChannel.END, ByteBuffer.allocate(0), timeout);
            } else if (kind == EXCHANGE) {
                String[] words = text.split(" ");
                receive(channel, words[0], words[1], words.length > 2 ? HexFormat.of().parseHex(words[2]) : null);
            } else {
                throw new WarpException(SqlState.INTERNAL_ERROR, "unknown UCX request kind " + kind);
            }
        } catch (RuntimeException e) {
            channel.sendError(ShardService.stateOf(e), e.getMessage());
        } finally {
            channel.close();
        }
    }

    /**
     * Puts the rows {@code sender} sends under {@code exchange} into the inbox, then acknowledges
     * them; its failure (an error frame, or its node lost) fails the inbox's reader. Rows for an
     * exchange id already dropped cancel the sender's stream. A sender that offers device frames
     * ({@code deviceAddress} not null) is answered whether this node pulls them: where its device
     * can map the sender's memory, each device frame's rows are copied into it before the frame is
     * credited (the sender then frees them); a sender lost meanwhile has its mapping closed. The
     * end frame carries the time those copies took ({@link #pulledNanos}).
     */
    private void receive(UcxChannel channel, String exchange, String sender, byte[] deviceAddress) {
        // The reader bounds each wait for rows by the node timeout; this side only needs to outlive a slow sender.
        Duration patience = timeout.multipliedBy(SEND_PATIENCE_TIMEOUTS);
        DeviceExchange pulling = deviceAddress != null && device.isPresent() && device.get().reaches(deviceAddress) ? device.get() : null;
        long pulledNanos = 0;
        try (UcxChannel.ReceivedBatches rows = channel.receiveBatches(allocator, patience, channel.peerName()
                + " sent no rows of exchange " + exchange + " within " + patience.toSeconds() + " s")) {
            if (deviceAddress != null) {
                channel.sendAccept(pulling != null, timeout);
            }
            for (UcxChannel.Incoming next = rows.nextIncoming(); next != null; next = rows.nextIncoming()) {
                boolean kept;
                if (next.batch() != null) {
                    kept = inbox.deliver(exchange, sender, next.batch());
                } else if (pulling != null) {
                    long start = System.nanoTime();
                    ResidentRows pulled = pulling.pull(deviceAddress, next.device(), rows.schema());
                    pulledNanos += System.nanoTime() - start;
                    kept = inbox.deliver(exchange, sender, pulled);
                    rows.credit();
                } else {
                    throw new WarpException(SqlState.CONNECTION_FAILURE, channel.peerName() + " sent a device frame this node did not accept");
                }
                if (!kept) {
                    return; // released: closing the stream cancels the sender
                }
            }
        } catch (RuntimeException e) {
            WarpException failure = e instanceof WarpException w ? w : new WarpException(ShardService.stateOf(e), String.valueOf(e.getMessage()), e);
            if (pulling != null && failure.state() == SqlState.CONNECTION_FAILURE) {
                pulling.forget(deviceAddress);
            }
            inbox.fail(exchange, sender, failure);
            return;
        }
        inbox.finish(exchange, sender);
        channel.send(UcxChannel.END, ByteBuffer.allocate(Long.BYTES).putLong(0, pulledNanos), timeout);
    }

    /** The time an exchange's receiver spent copying the sender's device frames in, as its end frame ({@code end}) says. */
    static long pulledNanos(ByteBuffer end) {
        return end.remaining() >= Long.BYTES ? end.getLong(end.position()) : 0;
    }

    /** Stops the requests in flight (their channels have failed when the transport closed first) and waits for them a while. */
    @Override
    public void close() {
        requests.shutdownNow();
        try {
            requests.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
