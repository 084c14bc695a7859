package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A shard's run of one fragment ({@link FragmentTicket}): it plans the query's text, takes its
 * copy of the fragment's subtree, replaces the subtrees whose rows come from exchanges by scans
 * of what every node sent it there (read whole, into a database of this run alone), and runs the
 * result over its shard. The rows go back to the caller, or to every node under the ticket's
 * exchange: hashed on its keys (murmur3, {@link ShardPartitioner}, on the GPU or the CPU as the
 * shard's partitioner is) or all to all; then the caller gets one row of {@link #SENT}.
 */
final class ShardFragment {
    /** What a sending fragment answers: the rows it sent, the bytes of them that went over the wire and its time. */
    static final Schema SENT = new Schema(List.of(new Field("rows", DataType.BIGINT), new Field("bytes", DataType.BIGINT),
            new Field("nanos", DataType.BIGINT)));

    private ShardFragment() {
    }

    /**
     * Runs {@code ticket} on {@code shard}; {@code members}: every node, in shard order. The caller
     * owns the stream. A sending fragment that fails ends its stream to every node as failed with
     * its error, so that no reader waits for it.
     */
    static BatchStream run(FragmentTicket ticket, ShardStore shard, Exchange exchange, List<Member> members, BufferAllocator allocator) {
        if (ticket.output() == null) {
            return rows(ticket, shard, exchange, members);
        }
        long start = System.nanoTime();
        List<Exchange.Outbox> outboxes = new ArrayList<>();
        try {
            try (BatchStream rows = rows(ticket, shard, exchange, members)) {
                for (Member m : members) {
                    outboxes.add(exchange.send(m, ticket.output().exchange(), rows.schema()));
                }
                long[] counts = send(rows, ticket.output(), outboxes, shard.partitioner(), allocator);
                return Batches.of(SENT, List.of(sent(new long[] {counts[0], counts[1], System.nanoTime() - start}, allocator)));
            }
        } catch (RuntimeException e) {
            WarpException error = e instanceof WarpException w ? w : new WarpException(SqlState.INTERNAL_ERROR, String.valueOf(e.getMessage()), e);
            for (int s = 0; s < members.size(); s++) {
                try {
                    if (s >= outboxes.size()) {
                        outboxes.add(null);
                        outboxes.set(s, exchange.send(members.get(s), ticket.output().exchange(), new Schema(List.of())));
                    }
                    outboxes.get(s).fail(error);
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        } finally {
            outboxes.stream().filter(o -> o != null).forEach(Exchange.Outbox::close);
        }
    }

    /** The fragment's rows on this shard. */
    private static BatchStream rows(FragmentTicket ticket, ShardStore shard, Exchange exchange, List<Member> members) {
        Session session = shard.database().newLocalSession();
        session.setExecutor(ticket.executor());
        List<AutoCloseable> owned = new ArrayList<>(List.of(session));
        try {
            PlanNode plan = QueryPlans.of(session, ticket.sql(), List.of())
                    .orElseThrow(() -> new WarpException(SqlState.INTERNAL_ERROR, "not a query: " + ticket.sql())).plan();
            PlanNode fragment = ticket.find(plan);
            if (!ticket.inputs().isEmpty()) {
                fragment = withReceivedInputs(ticket, fragment, shard, exchange, members, owned);
            }
            if (ticket.partial()) {
                fragment = FragmentPlanner.shardHalf((AggregateNode) fragment);
            }
            return new ResultStream(QueryPlans.run(session, fragment, fragment.schema()), () -> closeAll(owned));
        } catch (RuntimeException e) {
            try {
                closeAll(owned);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** {@code fragment} with each input subtree replaced by a scan of the rows every node sent this one under its exchange. */
    private static PlanNode withReceivedInputs(FragmentTicket ticket, PlanNode fragment, ShardStore shard, Exchange exchange,
            List<Member> members, List<AutoCloseable> owned) {
        Database received = Database.inMemoryWithin("exchange-" + UUID.randomUUID(), shard.database());
        owned.add(0, received);
        for (int i = 0; i < ticket.inputs().size(); i++) {
            FragmentTicket.Input input = ticket.inputs().get(i);
            Table table = received.catalog().create("input_" + i, numbered(FragmentPlanner.at(fragment, input.path()).schema()), false);
            try (BatchStream rows = exchange.receive(input.exchange(), members, table.schema())) {
                table.append(rows);
            }
        }
        CatalogSnapshot snapshot = received.catalog().snapshot();
        owned.add(0, snapshot);
        Map<List<Integer>, TableSource> sources = new HashMap<>();
        for (int i = 0; i < ticket.inputs().size(); i++) {
            sources.put(ticket.inputs().get(i).path(), snapshot.table("input_" + i).orElseThrow());
        }
        return FragmentPlanner.withInputs(fragment, sources);
    }

    /**
     * {@code schema} as a table of moved rows: its columns named c0, c1, ... (a join's columns may
     * share names, a table's may not) and nullable (the table carries rows, it checks no constraint:
     * an outer join's side may be typed NOT NULL where its rows hold NULL).
     */
    static Schema numbered(Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            fields.add(new Field("c" + c, schema.type(c).withNullable(true)));
        }
        return new Schema(fields);
    }

    /**
     * Sends {@code rows} to every node as {@code output} says, one outbox each, hashed by {@code partitioning};
     * returns the rows sent and the bytes on the wire.
     */
    private static long[] send(BatchStream rows, FragmentTicket.Output output, List<Exchange.Outbox> outboxes,
            HashPartitioner partitioning, BufferAllocator allocator) {
        long sentRows = 0;
        long bytes = 0;
        ShardPartitioner partitioner = output.keys().isEmpty() ? null : new ShardPartitioner(output.keys(), outboxes.size(), partitioning);
        for (Batch next = rows.next(); next != null; next = rows.next()) {
            List<Batch> parts = new ArrayList<>();
            try (Batch batch = next) {
                sentRows += batch.rowCount();
                if (partitioner != null) {
                    parts.addAll(partitioner.split(batch, allocator));
                } else {
                    // copies, not slices: what the outboxes and this node's inbox keep must not share buffers of the
                    // fragment's own allocator, which closes with it
                    List<Integer> all = IntStream.range(0, batch.rowCount()).boxed().toList();
                    for (int s = 0; s < outboxes.size(); s++) {
                        parts.add(CpuHashPartitioner.select(batch, all, allocator));
                    }
                }
            }
            for (int s = 0; s < parts.size(); s++) {
                Batch part = parts.set(s, null);
                try {
                    bytes += part.rowCount() == 0 ? closed(part) : outboxes.get(s).put(part);
                } catch (RuntimeException e) {
                    parts.stream().filter(p -> p != null).forEach(Batch::close);
                    throw e;
                }
            }
        }
        for (Exchange.Outbox outbox : outboxes) {
            outbox.finish();
        }
        return new long[] {sentRows, bytes};
    }

    private static long closed(Batch batch) {
        batch.close();
        return 0;
    }

    /** One row of {@link #SENT}. */
    private static Batch sent(long[] counts, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        for (int c = 0; c < counts.length; c++) {
            BigIntVector v = new BigIntVector(SENT.field(c).name(), allocator);
            v.allocateNew(1);
            v.set(0, counts[c]);
            v.setValueCount(1);
            vectors.add(v);
        }
        return new Batch(SENT, vectors, Arrays.asList(new StringDictionary[counts.length]), 1);
    }

    private static void closeAll(List<AutoCloseable> owned) {
        RuntimeException failure = null;
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
