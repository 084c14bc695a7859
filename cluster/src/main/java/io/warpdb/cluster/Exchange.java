package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.DeviceExchange;
import io.warpdb.core.exchange.DeviceParts;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The data plane between nodes: what a coordinator asks of a shard and how rows travel. Arrow
 * Flight ({@link FlightExchange}) is the portable transport, UCX ({@link UcxExchange}, seed 000's,
 * through jucx) the fast one; the coordinator and the shards never name a transport.
 *
 * <p>Rows move between shards (a repartitioned or broadcast join) under an <em>exchange id</em>,
 * {@code <query>/<number>}: every sending node opens one {@link Outbox} per receiving node with
 * {@link #send}, and every receiving node reads what all senders sent it with {@link #receive}.
 * A sender's stream ends with {@link Outbox#finish}, or with {@link Outbox#fail}, whose error the
 * receiver's read then throws; closing an outbox without either ends the stream as failed, and
 * the receiver's read fails naming that sender. Rows may arrive before the
 * receiver asks for them: a node keeps what arrives for an id until {@link #receive}'s stream is
 * closed or {@link #release} drops the query, and drops what arrives for an id after that.
 */
public interface Exchange extends AutoCloseable {
    /** The transport's name, as a node reports it at start. */
    String name();

    /** The node this exchange serves, to which rows go without the wire. */
    Member self();

    /** How rows hashed on this node's device move to the nodes of its host device to device, where the transport can (UCX). */
    default Optional<DeviceExchange> device() {
        return Optional.empty();
    }

    /**
     * Runs {@code sql}, a statement over the node's shard alone or a ticket ({@link
     * ShardService#open}: a fragment of a query, a byte range of a file to load), on {@code node}
     * once it has applied the cluster log up to {@code logIndex} (the coordinator's when its
     * statement began), and streams its rows back; the caller owns the stream and the batches it hands out. The
     * query starts on the node when this returns, so a caller that opens all shards' streams first
     * reads them while they all run.
     */
    BatchStream fetch(Member node, long logIndex, String sql);

    /**
     * Sends {@code rows} of {@code table} to {@code node}, which stages them unpublished under
     * {@code load} once it has applied the cluster log up to {@code logIndex}.
     */
    void stage(Member node, long logIndex, String load, String table, BatchStream rows);

    /** Drops what {@code node} staged under {@code load}; nothing when it staged nothing. */
    void abort(Member node, String load);

    /**
     * Opens this node's stream of rows of {@code schema} to {@code peer} (this node included,
     * without the wire) under {@code exchange}. Fails with SQLSTATE 08006 naming the peer when it
     * cannot be reached, at once or at a later call.
     */
    Outbox send(Member peer, String exchange, Schema schema);

    /**
     * This node's streams of rows of {@code schema} to each of {@code peers} under {@code exchange},
     * in their order, as {@link #send} opens them; one thread uses them all, and a transport may
     * share work between them (UCX: one choice of encodings per column for all of them). {@code
     * compress}: whether the rows are worth compressing where the transport compresses (not within a
     * host in a two-level shuffle, seed 000 section 5). Fails as {@link #send} does, having closed
     * those it opened.
     */
    default List<Outbox> send(List<Member> peers, String exchange, Schema schema, boolean compress) {
        return openAll(peers, peer -> send(peer, exchange, schema));
    }

    /** The outboxes {@code open} opens to each of {@code peers}, in order; when one fails, those opened are closed. */
    static List<Outbox> openAll(List<Member> peers, Function<Member, Outbox> open) {
        List<Outbox> opened = new ArrayList<>();
        try {
            for (Member peer : peers) {
                opened.add(open.apply(peer));
            }
        } catch (RuntimeException e) {
            opened.forEach(Outbox::close);
            throw e;
        }
        return opened;
    }

    /**
     * What every node of {@code senders} sends this node under {@code exchange}, as batches of
     * {@code schema} in arrival order (senders interleaved); it ends when every sender has
     * finished its stream. It fails with SQLSTATE 08006 naming the sender when one failed (its
     * outbox closed unfinished, its node gone) or when no sender sent anything within the node
     * timeout. Closing the stream drops what it did not read. The caller owns the stream and its
     * batches.
     */
    BatchStream receive(String exchange, List<Member> senders, Schema schema);

    /**
     * Drops on {@code node} (this one included) what it received and will receive under every
     * exchange id of {@code query}: a failed or cancelled query's cleanup, which readers that
     * never started would otherwise leave behind. A reader waiting there fails with SQLSTATE 57014.
     */
    void release(Member node, String query);

    @Override
    void close();

    /** One sender's stream of rows to one receiver under one exchange id. */
    interface Outbox extends AutoCloseable {
        /**
         * Sends {@code batch}'s rows and closes it; returns the bytes its frames took on the wire,
         * after compression (0 to this node; -1 where the transport does not count them).
         */
        long put(Batch batch);

        /**
         * Whether {@link #putDevice} moves rows device to device (into this node's inbox, or over
         * CUDA IPC to a receiver that can map this process's device memory); asking may wait for
         * the receiver's answer to the offer (at most the node timeout).
         */
        default boolean takesDevice() {
            return false;
        }

        /**
         * Sends part {@code part} of {@code parts} device to device (only where {@link
         * #takesDevice}); returns the bytes of its frames on the wire. The parts stay the caller's.
         */
        default long putDevice(DeviceParts parts, int part) {
            throw new UnsupportedOperationException("this stream takes host batches only");
        }

        /** Ends the stream; returns once the receiver has all its rows (at most the node timeout). */
        void finish();

        /**
         * After {@link #finish}: the time the receiver spent copying this stream's device frames in
         * (over CUDA IPC), as it reported; 0 where it copied none or the transport does not tell.
         */
        default long pulledNanos() {
            return 0;
        }

        /** The time its opening spent finding the receiver (over UCX: its worker address); 0 where that takes nothing. */
        default long lookupNanos() {
            return 0;
        }

        /** Ends the stream as failed: the receiver's read throws {@code error}'s SQLSTATE and message. */
        void fail(WarpException error);

        /** Frees the stream; one neither finished nor failed ends as failed for the receiver. */
        @Override
        void close();
    }
}
