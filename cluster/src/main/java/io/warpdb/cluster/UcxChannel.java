package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One conversation between two nodes over a {@link UcxTransport}: frames both ways, in order. On
 * it travels a stream of batches ({@link #sendBatches}, {@link #receiveBatches}): a schema frame,
 * batch frames, then an end frame, or an error frame (SQLSTATE and message) at any point. The
 * receiver grants the sender room for {@value #WINDOW} unread batches (a credit frame for each
 * it takes), so a slow reader bounds the memory a fast sender fills; a receiver that stops early
 * cancels, and the sender stops at its next batch. Every wait is bounded: a peer that sends
 * nothing within the timeout fails the wait with SQLSTATE 08006 naming it, and so does one that
 * UCX finds gone.
 *
 * <p>Between processes of one host a stream may carry device frames instead of batches: a
 * descriptor of rows the sender keeps in its device memory, which the receiver copies over CUDA
 * IPC and then credits, so that a credit also tells the sender that the rows of every frame up to
 * it have been taken and their memory may go ({@link #credited}). A sender that offers them (its
 * device address in the request) gets an accept frame first, saying whether the receiver can map
 * its memory.
 */
final class UcxChannel implements AutoCloseable {
    static final byte OPEN = 0;
    static final byte SCHEMA = 1;
    static final byte BATCH = 2;
    static final byte END = 3;
    static final byte ERROR = 4;
    static final byte CANCEL = 5;
    static final byte CREDIT = 6;
    static final byte DEVICE = 7;
    static final byte ACCEPT = 8;
    /** Batches a sender may have sent that the receiver has not taken yet. */
    static final int WINDOW = 8;
    /** How often a wait for the peer's end looks whether the peer cancelled. */
    private static final Duration CANCEL_CHECK = Duration.ofMillis(100);

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    /** A frame as received. */
    record Frame(byte type, ByteBuffer payload) {
    }

    private final UcxTransport transport;
    private final long id;
    private final ByteBuffer peer;
    private final String peerName;
    private final BlockingQueue<Frame> inbox = new LinkedBlockingQueue<>();
    private final Semaphore credits = new Semaphore(WINDOW);
    /** Credits received: the receiver has taken the first this many batch and device frames. */
    private final AtomicLong credited = new AtomicLong();
    /** The receiver's answer to a device offer: whether it pulls device frames. */
    private final CompletableFuture<Boolean> accepted = new CompletableFuture<>();
    /** Why the peer takes no more frames (it cancelled, or is gone); null while it does. */
    private volatile WarpException stopped;
    private boolean finished;

    UcxChannel(UcxTransport transport, long id, ByteBuffer peer, String peerName) {
        this.transport = transport;
        this.id = id;
        this.peer = peer;
        this.peerName = peerName;
    }

    long id() {
        return id;
    }

    ByteBuffer peer() {
        return peer;
    }

    String peerName() {
        return peerName;
    }

    /** Whether the peer still takes this channel's frames: it has neither cancelled it nor been lost. */
    boolean open() {
        return stopped == null;
    }

    /** From the transport's progress thread: a frame of this channel came. */
    void received(byte type, ByteBuffer payload) {
        if (type == CREDIT) {
            credited.incrementAndGet();
            credits.release();
        } else if (type == ACCEPT) {
            boolean pulls = payload.remaining() == 1 && payload.get(payload.position()) == 1;
            transport.answered(peer, pulls);
            accepted.complete(pulls);
        } else if (type == CANCEL) {
            stop(new WarpException(SqlState.QUERY_CANCELED, peerName + " cancelled the stream"));
        } else {
            inbox.add(new Frame(type, payload));
        }
    }

    /** The peer is gone: waits for it end with SQLSTATE 08006. */
    void lost(String reason) {
        String message = peerName + " is unreachable: " + reason;
        stop(new WarpException(SqlState.CONNECTION_FAILURE, message));
        inbox.add(new Frame(ERROR, errorPayload(SqlState.CONNECTION_FAILURE, message)));
    }

    private void stop(WarpException reason) {
        stopped = reason;
        accepted.complete(false);
        credits.release(WINDOW); // wakes a sender waiting for room, which then sees why
    }

    /** How many batch and device frames the receiver has taken (device frames once copied). */
    long credited() {
        return credited.get();
    }

    /**
     * The receiver's answer to this side's device offer, waiting for it at most {@code patience} (no
     * answer: false); without waiting when the receiver's process already answered this process's
     * offer on another channel (its answer depends on the two processes alone).
     */
    boolean awaitAccepted(Duration patience) {
        Boolean known = transport.answerOf(peer);
        if (known != null && open()) {
            return known;
        }
        try {
            return accepted.get(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while waiting for " + peerName);
        }
    }

    /** Answers the sender's device offer: whether this side pulls its device frames. */
    void sendAccept(boolean pulls, Duration patience) {
        send(ACCEPT, ByteBuffer.wrap(new byte[] {(byte) (pulls ? 1 : 0)}), patience);
    }

    /** Sends a frame and waits (up to {@code patience}) until UCX is done with it. */
    void send(byte type, ByteBuffer payload, Duration patience) {
        throwIfStopped();
        await(transport.send(this, type, payload), patience);
        finished |= type == END;
    }

    private void throwIfStopped() {
        WarpException reason = stopped;
        if (reason != null) {
            throw new WarpException(reason.state(), reason.getMessage(), reason);
        }
    }

    /** Sends an error frame, as far as the peer still listens. */
    void sendError(SqlState state, String message) {
        transport.send(this, ERROR, errorPayload(state, message));
        finished = true;
    }

    /**
     * Sends {@code rows} as a stream of batches (compressed or not), then the end frame, which
     * carries their node's times where they report them ({@link NodeTimes}). Waits at most {@code
     * patience} for room for each batch; returns the bytes of the frames sent.
     */
    long sendBatches(BatchStream rows, boolean compressed, BufferAllocator scratch, Duration patience) {
        try (BatchSender sender = sendingBatches(rows.schema(), compressed, new WireCodec.Choices(rows.schema()), scratch, patience)) {
            for (Batch next = rows.next(); next != null; next = rows.next()) {
                try (Batch batch = next) {
                    sender.put(batch);
                }
            }
            sender.end(NodeTimes.endPayload(rows));
            return sender.bytes();
        }
    }

    /**
     * Starts a stream of batches of {@code schema} (compressed or not, in the encodings of {@code
     * choices}) that the caller sends one at a time: the schema frame goes now. Each wait for room
     * or for UCX is at most {@code patience}.
     */
    BatchSender sendingBatches(Schema schema, boolean compressed, WireCodec.Choices choices, BufferAllocator scratch, Duration patience) {
        return new BatchSender(schema, compressed, choices, scratch, patience);
    }

    /**
     * A stream of batches this side sends, one at a time; counts the bytes of its frames. It does
     * not wait for UCX to be done with a batch before it encodes the next (the credits bound how
     * many are in flight); a failed send fails a later call.
     */
    final class BatchSender implements AutoCloseable {
        private final WireCodec codec;
        private final Duration patience;
        private final ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
        private long bytes;
        private long frames;

        private BatchSender(Schema schema, boolean compressed, WireCodec.Choices choices, BufferAllocator scratch, Duration patience) {
            this.codec = WireCodec.forSending(schema, compressed, scratch, choices);
            this.patience = patience;
            try {
                ByteBuffer frame = codec.schemaFrame();
                bytes = frame.remaining();
                send(SCHEMA, frame, patience);
            } catch (RuntimeException e) {
                codec.close();
                throw e;
            }
        }

        /** Sends {@code batch} (the caller still owns it) once the receiver has room; returns the bytes of its frame. */
        long put(Batch batch) {
            ArrowBuf frame = codec.encode(batch);
            long size = frame.writerIndex();
            CompletableFuture<Void> sent;
            try {
                awaitRoom(patience);
                throwIfStopped();
                sent = transport.send(UcxChannel.this, BATCH, frame.nioBuffer(0, (int) size));
            } catch (RuntimeException e) {
                frame.close();
                throw e;
            }
            // UCX reads the frame until the send completes, whichever way it does
            sent.whenComplete((done, failure) -> frame.close());
            return sent(sent, size);
        }

        /** Sends a device frame ({@code descriptor}) once the receiver has room; returns its bytes. */
        long putDevice(ByteBuffer descriptor) {
            awaitRoom(patience);
            throwIfStopped();
            long size = descriptor.remaining();
            return sent(transport.send(UcxChannel.this, DEVICE, descriptor), size);
        }

        private long sent(CompletableFuture<Void> sent, long size) {
            inFlight.add(sent);
            while (!inFlight.isEmpty() && inFlight.peek().isDone()) {
                await(inFlight.poll(), patience);
            }
            bytes += size;
            frames++;
            return size;
        }

        /** Batch and device frames sent so far: the n-th is taken once {@link #credited} reaches n. */
        long frames() {
            return frames;
        }

        /** Ends the stream once UCX is done with its batches. */
        void end() {
            end(EMPTY);
        }

        /** As {@link #end()}, the end frame carrying {@code payload}. */
        void end(ByteBuffer payload) {
            while (!inFlight.isEmpty()) {
                await(inFlight.poll(), patience);
            }
            send(END, payload, patience);
        }

        /** The bytes of the frames sent so far. */
        long bytes() {
            return bytes;
        }

        @Override
        public void close() {
            codec.close();
        }
    }

    private void awaitRoom(Duration patience) {
        try {
            if (!credits.tryAcquire(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                throw late(peerName + " took no rows for " + patience.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while sending to " + peerName);
        }
    }

    /**
     * The stream of batches that comes on this channel, decoded into {@code allocator}: the caller
     * owns it and its batches; closing it before the end cancels the sender. A wait longer than
     * {@code timeout} fails with SQLSTATE 08006 and {@code lateMessage}.
     */
    ReceivedBatches receiveBatches(BufferAllocator allocator, Duration timeout, String lateMessage) {
        return new ReceivedBatches(allocator, timeout, lateMessage);
    }

    /**
     * Waits for the peer's end frame (an acknowledgement) and returns its payload; its error frame
     * fails the wait with the peer's SQLSTATE, and so does its cancel.
     */
    ByteBuffer awaitEnd(Duration timeout, String lateMessage) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Frame frame = null;
        while (frame == null) {
            WarpException reason = stopped;
            if (reason != null && inbox.isEmpty()) {
                finished = true;
                throw new WarpException(reason.state(), reason.getMessage(), reason);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw late(lateMessage);
            }
            // in slices: a cancel comes as a state, not a frame
            frame = take(Duration.ofNanos(Math.min(left, CANCEL_CHECK.toNanos())), null);
        }
        if (frame.type() != END) {
            throw unexpected(frame);
        }
        finished = true;
        return frame.payload();
    }

    /** The next frame within {@code timeout}; past it, an 08006 failure with {@code lateMessage}, or null when that is null. */
    private Frame take(Duration timeout, String lateMessage) {
        Frame frame;
        try {
            frame = inbox.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while waiting for " + peerName);
        }
        if (frame == null) {
            if (lateMessage == null) {
                return null;
            }
            throw late(lateMessage);
        }
        if (frame.type() == ERROR) {
            finished = true;
            throw error(frame.payload());
        }
        return frame;
    }

    /**
     * A wait for the peer that ran out, with {@code message}: the transport no longer takes the
     * peer's address for granted (a node that restarted unnoticed has a new one).
     */
    private WarpException late(String message) {
        transport.forgetAddress(peer);
        return new WarpException(SqlState.CONNECTION_FAILURE, message);
    }

    private WarpException unexpected(Frame frame) {
        return new WarpException(SqlState.CONNECTION_FAILURE, peerName + " sent frame type " + frame.type() + " out of order");
    }

    private static ByteBuffer errorPayload(SqlState state, String message) {
        return ByteBuffer.wrap((state.code() + " " + message).getBytes(StandardCharsets.UTF_8));
    }

    /** The error an error frame carries, with its SQLSTATE. */
    private static WarpException error(ByteBuffer payload) {
        String text = StandardCharsets.UTF_8.decode(payload.duplicate()).toString();
        for (SqlState state : SqlState.values()) {
            if (text.startsWith(state.code() + " ")) {
                return new WarpException(state, text.substring(6));
            }
        }
        return new WarpException(SqlState.INTERNAL_ERROR, text);
    }

    private static void await(CompletableFuture<Void> sent, Duration patience) {
        try {
            sent.get(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof WarpException w ? w : new WarpException(SqlState.CONNECTION_FAILURE, e.getCause().toString());
        } catch (TimeoutException e) {
            throw new WarpException(SqlState.CONNECTION_FAILURE, "UCX did not send within " + patience.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while sending");
        }
    }

    /** Ends the conversation; before the peer's end or error frame came, it cancels the peer's stream. */
    @Override
    public void close() {
        if (!finished && stopped == null) {
            transport.send(this, CANCEL, EMPTY);
        }
        finished = true;
        transport.forget(this);
    }

    /** A frame of a stream: a batch, or a device frame's descriptor. */
    record Incoming(Batch batch, ByteBuffer device) {
    }

    /** A stream of batches arriving on this channel; counts the bytes of their frames; its end frame may carry the sender's {@link NodeTimes}. */
    final class ReceivedBatches implements BatchStream, WireMeasured, NodeTimes.Reported {
        private final BufferAllocator allocator;
        private final Duration timeout;
        private final String lateMessage;
        private WireCodec codec;
        private long wireBytes;
        private ByteBuffer end;

        private ReceivedBatches(BufferAllocator allocator, Duration timeout, String lateMessage) {
            this.allocator = allocator;
            this.timeout = timeout;
            this.lateMessage = lateMessage;
        }

        @Override
        public Schema schema() {
            if (codec == null) {
                Frame frame = take(timeout, lateMessage);
                if (frame.type() != SCHEMA) {
                    throw unexpected(frame);
                }
                wireBytes += frame.payload().remaining();
                codec = WireCodec.forReceiving(frame.payload(), allocator);
            }
            return codec.schema();
        }

        @Override
        public Batch next() {
            Incoming next = nextIncoming();
            if (next != null && next.batch() == null) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, peerName + " sent a device frame to a stream of host batches");
            }
            return next == null ? null : next.batch();
        }

        /**
         * The next batch (credited now) or device frame (credited by {@link #credit} once its rows
         * are copied), or null at the stream's end.
         */
        Incoming nextIncoming() {
            schema();
            if (finished) {
                return null;
            }
            Frame frame = take(timeout, lateMessage);
            if (frame.type() == END) {
                finished = true;
                end = frame.payload();
                return null;
            }
            wireBytes += frame.payload().remaining();
            if (frame.type() == DEVICE) {
                return new Incoming(null, frame.payload());
            }
            if (frame.type() != BATCH) {
                throw unexpected(frame);
            }
            credit();
            try (ArrowBuf bytes = WireCodec.frameOf(frame.payload(), allocator)) {
                return new Incoming(codec.decode(bytes), null);
            }
        }

        /** Tells the sender that a frame was taken: room for another, and (for a device frame) its rows may go. */
        void credit() {
            transport.send(UcxChannel.this, CREDIT, EMPTY);
        }

        /** The bytes of the frames received so far. */
        @Override
        public long wireBytes() {
            return wireBytes;
        }

        @Override
        public NodeTimes nodeTimes() {
            return NodeTimes.decode(end);
        }

        @Override
        public void close() {
            try {
                if (codec != null) {
                    codec.close();
                }
            } finally {
                UcxChannel.this.close();
            }
        }
    }
}
