package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.AsyncPutListener;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** {@link Exchange} over Arrow Flight (gRPC), one client per node, kept open. */
public final class FlightExchange implements Exchange {
    private final BufferAllocator allocator;
    private final Map<String, FlightClient> clients = new ConcurrentHashMap<>();

    /** Batches it receives are allocated to {@code allocator}, which it does not close. */
    public FlightExchange(BufferAllocator allocator) {
        this.allocator = allocator;
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
        BatchStream rows = call(node, () -> new ShardService.FlightBatches(
                client(node).getStream(new Ticket(sql.getBytes(StandardCharsets.UTF_8))), allocator));
        return new BatchStream() {
            @Override
            public Schema schema() {
                return call(node, rows::schema);
            }

            @Override
            public Batch next() {
                return call(node, rows::next);
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
            throw new WarpException(SqlState.CONNECTION_FAILURE, "node " + node.id() + " (" + node.host() + ":" + node.flightPort()
                    + ") failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
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
