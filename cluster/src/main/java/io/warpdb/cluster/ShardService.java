package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Session;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's Arrow Flight service for the other nodes: DoGet runs the ticket on this shard (SQL
 * text, a {@link FragmentTicket}, or a {@link CopyRangeTicket}: a byte range of a file to load) and
 * streams the rows; DoPut stages a load's rows (the
 * descriptor's command is {@code load/table}) or, when the descriptor is the path {@code
 * exchange, <exchange id>, <sender>}, puts exchange rows into the {@link FlightExchange}'s inbox;
 * the action {@code abort} drops a load's staged rows, {@code release} a query's exchange rows.
 * Errors travel as Flight errors whose description starts with the SQLSTATE.
 */
final class ShardService extends NoOpFlightProducer {
    static final String ABORT = "abort";
    /** The action that answers this node's UCX worker address (transport = ucx). */
    static final String UCX_ADDRESS = "ucx-address";
    private static final Logger LOG = LoggerFactory.getLogger(ShardService.class);
    private final ShardStore shard;
    private final BufferAllocator allocator;
    /** The Flight exchange: its inbox takes the exchange rows other nodes put here. */
    private final FlightExchange flight;
    /** The node's exchange (Flight or UCX), through which the fragments this service runs move rows. */
    private final Exchange exchange;
    private final List<Member> members;

    private final byte[] ucxAddress;

    /** {@code ucxAddressOrNull}: the node's UCX worker address, which {@link #UCX_ADDRESS} answers; null without UCX. */
    ShardService(ShardStore shard, BufferAllocator allocator, FlightExchange flight, Exchange exchange, List<Member> members,
            byte[] ucxAddressOrNull) {
        this.shard = shard;
        this.allocator = allocator;
        this.flight = flight;
        this.exchange = exchange;
        this.members = members;
        this.ucxAddress = ucxAddressOrNull;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        String sql = new String(ticket.getBytes(), StandardCharsets.UTF_8);
        try (BatchStream result = open(sql, shard, exchange, members, allocator, flight.timeout());
                VectorSchemaRoot root = VectorSchemaRoot.create(WireFormat.arrowSchema(result.schema()), allocator)) {
            listener.start(root);
            for (Batch next = result.next(); next != null; next = result.next()) {
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

    /**
     * The rows of the ticket {@code request} holds ({@link #request}), SQL text, a {@link
     * FragmentTicket} or a {@link CopyRangeTicket}, on this shard once it has applied the log index
     * the request names; the caller owns the stream. A fragment that sends its rows to the shards
     * answers its one row of counts, a range of a COPY its rows of {@link CopyRange#LOADED}, and
     * while either runs an empty batch every third of {@code timeout} (the node timeout) tells the
     * caller this node lives. The shard services of every transport run their tickets here.
     */
    static BatchStream open(String request, ShardStore shard, Exchange exchange, List<Member> members, BufferAllocator allocator,
            Duration timeout) {
        String ticket = awaitLog(request, shard, timeout);
        Optional<CopyRangeTicket> copy = CopyRangeTicket.parse(ticket);
        if (copy.isPresent()) {
            CopyRangeTicket range = copy.get();
            return range.asksSize() ? CopyRange.seen(range, allocator) : new HeartbeatStream(CopyRange.LOADED, timeout.dividedBy(3),
                    allocator, () -> CopyRange.run(range, shard, exchange, members, allocator));
        }
        return FragmentTicket.parse(ticket).map(f -> f.output() == null
                ? ShardFragment.run(f, null, shard, exchange, members, allocator)
                : new HeartbeatStream(ShardFragment.SENT, timeout.dividedBy(3), allocator,
                        () -> ShardFragment.run(f, null, shard, exchange, members, allocator)))
                .orElseGet(() -> statement(shard, ticket));
    }

    /**
     * A request to a shard ({@code text}: a ticket, or {@code load/table}) that waits until the
     * shard has applied the commands up to log index {@code logIndex}.
     */
    static String request(long logIndex, String text) {
        return logIndex + "\n" + text;
    }

    /** Waits until {@code shard} has applied the log index {@code request} names (at most {@code timeout}); returns its text. */
    static String awaitLog(String request, ShardStore shard, Duration timeout) {
        int newline = request.indexOf('\n');
        shard.awaitLog(Long.parseLong(request.substring(0, newline)), timeout);
        return request.substring(newline + 1);
    }

    private static BatchStream statement(ShardStore shard, String sql) {
        Session session = shard.database().newLocalSession();
        try {
            return new ResultStream(session.execute(sql, List.of()), session);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    @Override
    public Runnable acceptPut(CallContext context, FlightStream stream, StreamListener<PutResult> ack) {
        if (!stream.getDescriptor().isCommand()) {
            return () -> receive(stream, ack);
        }
        return () -> {
            try (BatchStream rows = new FlightBatches(stream, allocator)) {
                String[] target = awaitLog(new String(stream.getDescriptor().getCommand(), StandardCharsets.UTF_8), shard, flight.timeout())
                        .split("/", 2);
                shard.stage(target[0], target[1], rows);
                ack.onCompleted();
            } catch (RuntimeException e) {
                ack.onError(error(e));
            }
        };
    }

    /** Puts a sender's exchange rows into the inbox: its batches, then its end or its failure. */
    private void receive(FlightStream stream, StreamListener<PutResult> ack) {
        List<String> path = stream.getDescriptor().getPath();
        String id = path.get(1);
        String sender = path.get(2);
        try (BatchStream rows = new FlightBatches(stream, allocator)) {
            WarpException failure = null;
            for (Batch batch = rows.next(); batch != null && failure == null; batch = rows.next()) {
                ArrowBuf metadata = stream.getLatestMetadata();
                if (metadata != null) {
                    batch.close();
                    byte[] text = new byte[(int) metadata.readableBytes()];
                    metadata.getBytes(0, text);
                    String description = new String(text, StandardCharsets.UTF_8);
                    failure = FlightExchange.error(description, null);
                    if (failure == null) {
                        failure = new WarpException(SqlState.INTERNAL_ERROR, description);
                    }
                } else {
                    flight.inbox().deliver(id, sender, batch);
                }
            }
            if (failure != null) {
                flight.inbox().fail(id, sender, failure);
            } else {
                flight.inbox().finish(id, sender);
            }
            ack.onCompleted();
        } catch (RuntimeException e) {
            flight.inbox().fail(id, sender, new WarpException(SqlState.CONNECTION_FAILURE, "node " + sender
                    + " stopped sending rows of exchange " + id + ": " + e.getMessage(), e));
            ack.onError(error(e));
        }
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        if (action.getType().equals(UCX_ADDRESS) && ucxAddress != null) {
            listener.onNext(new Result(ucxAddress));
            listener.onCompleted();
            return;
        }
        String body = new String(action.getBody(), StandardCharsets.UTF_8);
        switch (action.getType()) {
            case ABORT -> shard.abort(body);
            case FlightExchange.RELEASE -> flight.inbox().release(body);
            default -> {
                listener.onError(CallStatus.UNIMPLEMENTED.withDescription("no action " + action.getType()).toRuntimeException());
                return;
            }
        }
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
