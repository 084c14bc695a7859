package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's Arrow Flight service for the other nodes: DoGet runs the ticket on this shard (SQL
 * text, or a {@link FragmentTicket}) and streams the rows; DoPut stages a load's rows (the descriptor's command is
 * {@code load/table}); the action {@code abort} drops a load's staged rows. Errors travel as
 * Flight errors whose description starts with the SQLSTATE.
 */
final class ShardService extends NoOpFlightProducer {
    static final String ABORT = "abort";
    /** The action that answers this node's UCX worker address (transport = ucx). */
    static final String UCX_ADDRESS = "ucx-address";
    private static final Logger LOG = LoggerFactory.getLogger(ShardService.class);

    private final ShardStore shard;
    private final BufferAllocator allocator;

    private final byte[] ucxAddress;

    /** {@code ucxAddressOrNull}: the node's UCX worker address, which {@link #UCX_ADDRESS} answers; null without UCX. */
    ShardService(ShardStore shard, BufferAllocator allocator, byte[] ucxAddressOrNull) {
        this.shard = shard;
        this.allocator = allocator;
        this.ucxAddress = ucxAddressOrNull;
    }

    /** Runs {@code ticket} (SQL text or a {@link FragmentTicket}) on {@code session}, which holds this shard alone. */
    static StatementResult run(Session session, String ticket) {
        return FragmentTicket.parse(ticket).map(fragment -> fragment.run(session)).orElseGet(() -> session.execute(ticket, List.of()));
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        String sql = new String(ticket.getBytes(), StandardCharsets.UTF_8);
        try (Session session = shard.database().newLocalSession();
                StatementResult result = run(session, sql);
                VectorSchemaRoot root = VectorSchemaRoot.create(WireFormat.arrowSchema(result.schema()), allocator)) {
            listener.start(root);
            for (Batch next = result.batches().next(); next != null; next = result.batches().next()) {
                try (Batch batch = next) {
                    WireFormat.fill(root, batch);
                }
                listener.putNext();
            }
            listener.completed();
        } catch (RuntimeException e) {
            listener.error(error(e));
        }
    }

    @Override
    public Runnable acceptPut(CallContext context, FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            String[] target = new String(stream.getDescriptor().getCommand(), StandardCharsets.UTF_8).split("/", 2);
            try (BatchStream rows = new FlightBatches(stream, allocator)) {
                shard.stage(target[0], target[1], rows);
                ack.onCompleted();
            } catch (RuntimeException e) {
                ack.onError(error(e));
            }
        };
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        if (action.getType().equals(UCX_ADDRESS) && ucxAddress != null) {
            listener.onNext(new Result(ucxAddress));
            listener.onCompleted();
            return;
        }
        if (!action.getType().equals(ABORT)) {
            listener.onError(CallStatus.UNIMPLEMENTED.withDescription("no action " + action.getType()).toRuntimeException());
            return;
        }
        shard.abort(new String(action.getBody(), StandardCharsets.UTF_8));
        listener.onCompleted();
    }

    /** A Flight error carrying the SQLSTATE of {@code e} (XX000 for a bug, which the log records). */
    private static RuntimeException error(RuntimeException e) {
        SqlState state = stateOf(e);
        return CallStatus.INTERNAL.withDescription(state.code() + " " + e.getMessage()).withCause(e).toRuntimeException();
    }

    /** The SQLSTATE a shard's request failed with: XX000 for a bug, which the log records. */
    static SqlState stateOf(RuntimeException e) {
        if (e instanceof WarpException w) {
            return w.state();
        }
        LOG.error("shard request failed", e);
        return SqlState.INTERNAL_ERROR;
    }

    /** The batches of a Flight stream as WarpDB batches. */
    static final class FlightBatches implements BatchStream {
        private final FlightStream stream;
        private final BufferAllocator allocator;
        private Schema schema;

        FlightBatches(FlightStream stream, BufferAllocator allocator) {
            this.stream = stream;
            this.allocator = allocator;
        }

        @Override
        public Schema schema() {
            if (schema == null) {
                schema = WireFormat.schema(stream.getSchema());
            }
            return schema;
        }

        @Override
        public Batch next() {
            Schema s = schema();
            return stream.next() ? WireFormat.batch(stream.getRoot(), s, allocator) : null;
        }

        @Override
        public void close() {
            try {
                stream.close();
            } catch (Exception e) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, "closing a stream between nodes failed: " + e.getMessage(), e);
            }
        }
    }
}
