package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.AsyncPutListener;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * {@link Exchange} over Arrow Flight (gRPC), one client per node, kept open. A node that sends
 * no rows for the node timeout (it died, hangs or is cut off) fails the fetch with SQLSTATE 08006
 * naming it: the stream is cancelled, so no query waits on it longer. Rows between shards travel
 * as a DoPut to the receiver whose descriptor is the path {@code exchange, <exchange id>, <sender
 * id>}; the receiver's {@link ShardService} puts them into its {@link #inbox()}. A failed sender's
 * last message carries no rows and, as its application metadata, {@code <SQLSTATE> <message>}.
 */
public final class FlightExchange implements Exchange {
    /** The first element of the descriptor path of a DoPut of exchange rows. */
    static final String EXCHANGE = "exchange";
    /** The action that releases a query's exchange ids; its body is the query. */
    static final String RELEASE = "release";

    private final BufferAllocator allocator;
    private final Duration timeout;
    private final Member self;
    private final ExchangeInbox inbox;
    private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();
    private final ScheduledExecutorService alarms = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("flight-exchange-timeouts"));

    /**
     * Batches it receives are allocated to {@code allocator}, which it does not close; {@code
     * timeout} bounds each wait for a node; {@code self}: this node, to which rows go without the wire.
     */
    public FlightExchange(BufferAllocator allocator, Duration timeout, Member self) {
        this.allocator = allocator;
        this.timeout = timeout;
        this.self = self;
        this.inbox = new ExchangeInbox(timeout);
    }

    /** How long a wait for another node lasts at most. */
    Duration timeout() {
        return timeout;
    }

    /** Where this node's {@link ShardService} puts the exchange rows other nodes send it. */
    ExchangeInbox inbox() {
        return inbox;
    }

    @Override
    public String name() {
        return "Arrow Flight";
    }

    @Override
    public Member self() {
        return self;
    }

    private FlightClient client(Member node) {
        return clients.computeIfAbsent(node.id(),
                id -> FlightClient.builder(allocator, Location.forGrpcInsecure(node.host(), node.flightPort())).build());
    }

    @Override
    public BatchStream fetch(Member node, long logIndex, String sql) {
        byte[] ticket = ShardService.request(logIndex, sql).getBytes(StandardCharsets.UTF_8);
        FlightStream flight = call(node, () -> client(node).getStream(new Ticket(ticket)));
        BatchStream rows = new ShardService.FlightBatches(flight, allocator);
        return new BatchStream() {
            @Override
            public Schema schema() {
                return waitFor(node, flight, rows::schema);
            }

            @Override
            public Batch next() {
                return waitFor(node, flight, rows::next);
            }

            @Override
            public void close() {
                call(node, () -> {
                    rows.close();
                    return null;
                });
            }
        };
    }

    /** Runs {@code body}, which waits for {@code node}; past the timeout the stream is cancelled and the wait fails naming the node. */
    private <T> T waitFor(Member node, FlightStream flight, Supplier<T> body) {
        AtomicBoolean late = new AtomicBoolean();
        ScheduledFuture<?> alarm = alarms.schedule(() -> {
            late.set(true);
            flight.cancel("no answer within the node timeout", null);
        }, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            return call(node, body);
        } catch (WarpException e) {
            if (late.get()) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, notAnswering(node, timeout), e);
            }
            throw e;
        } finally {
            alarm.cancel(false);
        }
    }

    /** The message of a wait for {@code node} that lasted longer than {@code timeout}. */
    static String notAnswering(Member node, Duration timeout) {
        return describe(node) + " did not answer within " + timeout.toSeconds() + " s (node.timeout.seconds)";
    }

    /** How errors name {@code node}: its id and data address. */
    static String describe(Member node) {
        return "node " + node.id() + " (" + node.host() + ":" + node.flightPort() + ")";
    }

    /**
     * The address of {@code node}'s UCX worker, which its Flight service publishes: the control
     * step of a UCX exchange. Past the node timeout it fails as a fetch does.
     */
    byte[] ucxAddress(Member node) {
        try {
            return call(node, () -> {
                Iterator<Result> results = client(node).doAction(new Action(ShardService.UCX_ADDRESS),
                        CallOptions.timeout(timeout.toMillis(), TimeUnit.MILLISECONDS));
                return results.next().getBody();
            });
        } catch (WarpException e) {
            if (e.getCause() instanceof FlightRuntimeException f && f.status().code() == FlightStatusCode.TIMED_OUT) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, notAnswering(node, timeout), e);
            }
            throw e;
        }
    }

    @Override
    public void stage(Member node, long logIndex, String load, String table, BatchStream rows) {
        byte[] target = ShardService.request(logIndex, load + "/" + table).getBytes(StandardCharsets.UTF_8);
        call(node, () -> {
            try (VectorSchemaRoot root = VectorSchemaRoot.create(WireFormat.arrowSchema(rows.schema()), allocator)) {
                FlightClient.ClientStreamListener put = client(node).startPut(FlightDescriptor.command(target), root, new AsyncPutListener());
                try {
                    for (Batch next = rows.next(); next != null; next = rows.next()) {
                        try (Batch batch = next) {
                            WireFormat.fill(root, batch);
                        }
                        put.putNext();
                    }
                } catch (RuntimeException e) {
                    // the node's staging fails instead of waiting for the rest: it stages nothing
                    put.error(CallStatus.CANCELLED.withDescription("the sender failed: " + e.getMessage()).toRuntimeException());
                    throw e;
                }
                put.completed();
                put.getResult();
            }
            return null;
        });
    }

    @Override
    public void abort(Member node, String load) {
        call(node, () -> {
            client(node).doAction(new Action(ShardService.ABORT, load.getBytes(StandardCharsets.UTF_8))).forEachRemaining(r -> { });
            return null;
        });
    }

    @Override
    public Outbox send(Member peer, String exchange, Schema schema) {
        if (peer.id().equals(self.id())) {
            return new LocalOutbox(inbox, exchange, self.id());
        }
        return call(peer, () -> new FlightOutbox(peer, exchange, schema));
    }

    @Override
    public BatchStream receive(String exchange, List<Member> senders, Schema schema) {
        return inbox.receive(exchange, senders, schema);
    }

    @Override
    public void release(Member node, String query) {
        if (node.id().equals(self.id())) {
            inbox.release(query);
            return;
        }
        call(node, () -> {
            client(node).doAction(new Action(RELEASE, query.getBytes(StandardCharsets.UTF_8))).forEachRemaining(r -> { });
            return null;
        });
    }

    /** Rows to another node: one DoPut, each batch one Arrow record batch. */
    private final class FlightOutbox implements Outbox {
        private final Member peer;
        private final VectorSchemaRoot root;
        private final FlightClient.ClientStreamListener put;
        private final CompletableFuture<Void> acknowledged = new CompletableFuture<>();
        private boolean ended;

        FlightOutbox(Member peer, String exchange, Schema schema) {
            this.peer = peer;
            this.root = VectorSchemaRoot.create(WireFormat.arrowSchema(schema), allocator);
            try {
                this.put = client(peer).startPut(FlightDescriptor.path(EXCHANGE, exchange, self.id()), root, new FlightClient.PutListener() {
                    @Override
                    public void getResult() {
                        acknowledged.join();
                    }

                    @Override
                    public void onNext(PutResult result) {
                    }

                    @Override
                    public void onError(Throwable t) {
                        acknowledged.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        acknowledged.complete(null);
                    }

                    /** Once the call ended (the receiver answered or failed), Flight stops waiting for it to take more. */
                    @Override
                    public boolean isCancelled() {
                        return acknowledged.isDone();
                    }
                });
            } catch (RuntimeException e) {
                root.close();
                throw e;
            }
        }

        @Override
        public long put(Batch batch) {
            try (batch) {
                return call(peer, () -> {
                    WireFormat.fill(root, batch);
                    put.putNext();
                    return -1L; // gRPC's frames are not counted apart from the Arrow buffers
                });
            }
        }

        @Override
        public void finish() {
            ended = true;
            put.completed();
            await();
        }

        @Override
        public void fail(WarpException error) {
            ended = true;
            root.setRowCount(0);
            byte[] text = (error.state().code() + " " + error.getMessage()).getBytes(StandardCharsets.UTF_8);
            ArrowBuf metadata = allocator.buffer(text.length);
            metadata.writeBytes(text);
            put.putNext(metadata);
            put.completed();
            await();
        }

        /** Waits for the receiver's acknowledgement, at most the node timeout. */
        private void await() {
            try {
                acknowledged.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, "node " + peer.id() + " (" + peer.host() + ":" + peer.flightPort()
                        + ") did not take its rows within " + timeout.toSeconds() + " s (node.timeout.seconds)", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof FlightRuntimeException flight) {
                    call(peer, () -> {
                        throw flight;
                    });
                }
                throw new WarpException(SqlState.CONNECTION_FAILURE, "node " + peer.id() + " failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while sending rows to node " + peer.id(), e);
            }
        }

        @Override
        public void close() {
            try {
                if (!ended) {
                    put.error(CallStatus.CANCELLED.withDescription("the sender stopped").toRuntimeException());
                }
            } finally {
                root.close();
            }
        }
    }

    /** Runs a call to {@code node}, turning Flight's errors into SQLExceptions' states: the shard's own, or 08006 naming the node. */
    /**
     * Runs {@code body}, a call to {@code node}; a Flight error becomes its SQLSTATE, or 08006
     * naming the node. A node found unavailable loses its cached client: gRPC would wait out its
     * reconnect backoff on that channel, and fail the first queries after the node restarts.
     */
    private <T> T call(Member node, Supplier<T> body) {
        FlightClient used = client(node);
        try {
            return body.get();
        } catch (FlightRuntimeException e) {
            if (e.status().code() == FlightStatusCode.UNAVAILABLE && clients.remove(node.id(), used)) {
                try {
                    alarms.execute(() -> closeQuietly(used));  // not on the caller's thread: closing waits for the channel
                } catch (java.util.concurrent.RejectedExecutionException closed) {
                    closeQuietly(used);
                }
            }
            WarpException error = error(e.status().description(), e);
            if (error != null) {
                throw error;
            }
            throw new WarpException(SqlState.CONNECTION_FAILURE, describe(node) + " failed: " + e.getMessage(), e);
        }
    }

    /** The error {@code description} ({@code <SQLSTATE> <message>}) names, or null when it names none. */
    static WarpException error(String description, Throwable cause) {
        if (description != null && description.length() > 6 && description.charAt(5) == ' ') {
            for (SqlState state : SqlState.values()) {
                if (state.code().equals(description.substring(0, 5))) {
                    return new WarpException(state, description.substring(6), cause);
                }
            }
        }
        return null;
    }

    private static void closeQuietly(FlightClient client) {
        try {
            client.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        inbox.close();
        alarms.shutdownNow();
        for (FlightClient client : clients.values()) {
            try {
                client.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        clients.clear();
    }
}
