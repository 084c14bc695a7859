package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.flight.Action;
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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * {@link Exchange} over Arrow Flight (gRPC), one client per node, kept open. A node that sends
 * no rows for the node timeout (it died, hangs or is cut off) fails the fetch with SQLSTATE 08006
 * naming it: the stream is cancelled, so no query waits on it longer.
 */
public final class FlightExchange implements Exchange {
    private final BufferAllocator allocator;
    private final Duration timeout;
    private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();
    private final ScheduledExecutorService alarms = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "flight-exchange-timeouts");
        t.setDaemon(true);
        return t;
    });

    /** Batches it receives are allocated to {@code allocator}, which it does not close; {@code timeout} bounds each wait for a node. */
    public FlightExchange(BufferAllocator allocator, Duration timeout) {
        this.allocator = allocator;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "Arrow Flight";
    }

    private FlightClient client(Member node) {
        return clients.computeIfAbsent(node.id(),
                id -> FlightClient.builder(allocator, Location.forGrpcInsecure(node.host(), node.flightPort())).build());
    }

    @Override
    public BatchStream fetch(Member node, String sql) {
        FlightStream flight = call(node, () -> client(node).getStream(new Ticket(sql.getBytes(StandardCharsets.UTF_8))));
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
    public void stage(Member node, String load, String table, BatchStream rows) {
        call(node, () -> {
            try (VectorSchemaRoot root = VectorSchemaRoot.create(WireFormat.arrowSchema(rows.schema()), allocator)) {
                FlightClient.ClientStreamListener put = client(node).startPut(
                        FlightDescriptor.command((load + "/" + table).getBytes(StandardCharsets.UTF_8)), root, new AsyncPutListener());
                for (Batch next = rows.next(); next != null; next = rows.next()) {
                    try (Batch batch = next) {
                        WireFormat.fill(root, batch);
                    }
                    put.putNext();
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

    /** Runs a call to {@code node}, turning Flight's errors into SQLExceptions' states: the shard's own, or 08006 naming the node. */
    private static <T> T call(Member node, Supplier<T> body) {
        try {
            return body.get();
        } catch (FlightRuntimeException e) {
            String description = e.status().description();
            if (description != null && description.length() > 6 && description.charAt(5) == ' ') {
                for (SqlState state : SqlState.values()) {
                    if (state.code().equals(description.substring(0, 5))) {
                        throw new WarpException(state, description.substring(6), e);
                    }
                }
            }
            throw new WarpException(SqlState.CONNECTION_FAILURE, describe(node) + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
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
