package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.exec.DaemonThreads;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SharedSubplans;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.PinnedStatistics;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.vector.FieldVector;

/**
 * One query run as fragments on the shards and the rest on the coordinator ({@link FragmentPlanner}):
 * every shard runs each fragment over its rows. A fragment whose rows go to the shards (a side of
 * a repartitioned or broadcast join) sends them to every node over the {@link Exchange} under an
 * exchange id of this query, which the fragments reading it receive ({@link ShardFragment}); the
 * coordinator starts all of those first, so that they run while the gathered fragments wait for
 * their rows. A gathered fragment streams its rows to this node (its own without the wire) into a
 * table of a database of this query alone; the coordinator's plan scans those tables, and this
 * node's copies of replicated tables. Counts the rows, bytes and time of each exchange for
 * EXPLAIN ANALYZE. A query that fails releases its exchange ids on every node.
 */
final class DistributedQuery implements AutoCloseable {
    /**
     * What one fragment's exchange moved: rows and Arrow bytes received from all shards, the bytes
     * their frames took on the wire (after compression; -1 where the transport does not count
     * them), and the time until the last arrived; of the bytes, those that went device to device
     * over CUDA IPC instead ({@code ipcBytes}: no frame carried them); for rows sent between
     * shards, where the slowest sender's time went ({@code slowest}; null for a gathered fragment);
     * for a gathered fragment, where each node that reports it spent its time ({@code nodes}, as
     * EXPLAIN ANALYZE shows them).
     */
    record ExchangeStats(long rows, long bytes, long wireBytes, long nanos, long hop1Bytes, long hop1WireBytes, long ipcBytes,
            SenderSteps slowest, List<String> nodes) {
        /** Both senders' counts: sums, the slower time and its steps, -1 wire bytes where either did not count them. */
        ExchangeStats plus(ExchangeStats o) {
            return new ExchangeStats(rows + o.rows, bytes + o.bytes, wireBytes < 0 || o.wireBytes < 0 ? -1 : wireBytes + o.wireBytes,
                    Math.max(nanos, o.nanos), hop1Bytes + o.hop1Bytes, hop1WireBytes < 0 || o.hop1WireBytes < 0 ? -1 : hop1WireBytes + o.hop1WireBytes,
                    ipcBytes + o.ipcBytes, nanos >= o.nanos ? slowest : o.slowest, List.of());
        }
    }

    /**
     * Where one node's sending fragment spent its time ({@link ShardFragment}'s steps, in the order
     * of its answer's columns after the first seven): opening its plan's result ({@code inputsNanos}
     * of it waiting for the rows other nodes sent it), taking its {@code rows} ({@code residentRows}
     * of them resident on the device), hashing them into parts, waiting for its outboxes' opening
     * ({@code openWaitNanos}) and handing them the parts ({@code sendNanos}), waiting for the
     * receivers' ends, and the receivers' copies of its device frames; the opening, which ran beside
     * the rest from {@code openStartNanos} after the fragment began: finding the receivers, opening
     * the channels, their answers to the device offer. {@code requestNanos}: what the coordinator
     * waited beyond the fragment's own time, from its request to the answer (hand-offs, the
     * request's and the answer's ways).
     */
    record SenderSteps(String node, long rows, long planNanos, long takeNanos, long residentRows, long partitionNanos, long sendNanos,
            long finishNanos, long pullNanos, long inputsNanos, long openWaitNanos, long openStartNanos, long lookupNanos,
            long channelNanos, long answerNanos, long requestNanos) {
        /** {@code sent}: a fragment's answer ({@link ShardFragment#SENT}), then the coordinator's wait from request to answer. */
        static SenderSteps of(String node, long[] sent) {
            return new SenderSteps(node, sent[0], sent[7], sent[8], sent[9], sent[10], sent[11], sent[12], sent[13], sent[14], sent[15],
                    sent[16], sent[17], sent[18], sent[19], sent[20] - sent[3]);
        }

        /** As EXPLAIN ANALYZE shows them. */
        String text() {
            String taken = residentRows == 0 ? "rows as host batches" : residentRows >= rows ? "rows resident on the device"
                    : residentRows + " rows resident on the device, the others as host batches";
            String inputs = inputsNanos == 0 ? "" : String.format(Locale.ROOT, "wait for inputs=%.1f ms, ", inputsNanos / 1e6);
            return String.format(Locale.ROOT, "slowest sender %s: %splan=%.1f ms, take (%s)=%.1f ms, partition=%.1f ms, send=%.1f ms"
                    + " (wait for the outboxes=%.1f ms, puts=%.1f ms), wait for receivers=%.1f ms (their pulls=%.1f ms); its outboxes' opening"
                    + " from %.1f ms: address=%.1f ms, channel=%.1f ms, device answer=%.1f ms; request and answer=%.1f ms", node, inputs,
                    (planNanos - inputsNanos) / 1e6, taken, takeNanos / 1e6, partitionNanos / 1e6, (openWaitNanos + sendNanos) / 1e6,
                    openWaitNanos / 1e6, sendNanos / 1e6, finishNanos / 1e6, pullNanos / 1e6, openStartNanos / 1e6, lookupNanos / 1e6,
                    channelNanos / 1e6, answerNanos / 1e6, requestNanos / 1e6);
        }
    }

    /** Runs the fragments that send rows between shards when this node runs one itself, and reads the others' answers. */
    private static final ExecutorService LOCAL_SENDERS = DaemonThreads.cachedPool("cluster-fragment");

    private final ClusterConfig config;
    private final Session session;
    private final ShardStore shard;
    private final Exchange exchange;
    private final String sql;
    private final PlanNode plan;
    private final Schema schema;
    private final List<FragmentPlanner.Fragment> fragments;
    /** The joins this node turned and reordered before cutting the plan ({@link JoinRotation}, {@link JoinOrder}), which every shard does too. */
    private final Set<String> rotations;
    /** The statistics this node planned the query from, which every shard plans it from too. */
    private final PinnedStatistics statistics;
    private final Database gathered;
    private final String id = UUID.randomUUID().toString();
    private final Map<Integer, ExchangeStats> stats = new HashMap<>();
    private CatalogSnapshot snapshot;
    private boolean closed;

    /** {@code session}: the coordinator's, on this node's shard database, which this query closes. */
    DistributedQuery(ClusterConfig config, ClusterCatalog catalog, Session session, ShardStore shard, Exchange exchange, String sql,
            QueryPlans.QueryPlan planned, String name) {
        this.config = config;
        this.session = session;
        this.shard = shard;
        this.exchange = exchange;
        this.sql = sql;
        // Fragments are cut from trees: a subplan shared by two parts of the plan runs in each.
        PlanNode unshared = SharedSubplans.unshare(planned.plan());
        this.rotations = new LinkedHashSet<>(FragmentPlanner.rotations(unshared, catalog, config.members().size()));
        this.rotations.addAll(FragmentPlanner.joinOrders(JoinRotation.apply(unshared, rotations), catalog, config.members().size()));
        this.plan = FragmentPlanner.reshaped(unshared, rotations);
        this.schema = planned.schema();
        this.fragments = FragmentPlanner.fragments(plan, catalog, config.members().size());
        this.statistics = PinnedStatistics.of(plan);
        this.gathered = Database.inMemoryWithin(name, shard.database());
    }

    /** Runs the fragments on every shard, then the coordinator's plan; the result closes this query. */
    StatementResult run() {
        try {
            gather(true);
            return StatementResult.query(schema, new ResultStream(coordinatorResult(), this), shard.database().allocator()
                    .newChildAllocator("cluster-query", 0, 0));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private StatementResult coordinatorResult() {
        return QueryPlans.run(session, coordinatorPlan(), schema);
    }

    /**
     * EXPLAIN's lines: each fragment with the nodes that run it, the exchanges it reads and the
     * exchange that takes its rows to this node or to the shards, then the coordinator's plan;
     * {@code analyzed}: after the query ran to its end, with the rows, bytes and time of each
     * exchange and the coordinator's time.
     */
    List<String> explain(boolean analyzed) {
        gather(analyzed);
        String coordinatorTime = "";
        if (analyzed) {
            long start = System.nanoTime();
            try (StatementResult result = coordinatorResult()) {
                for (Batch b = result.batches().next(); b != null; b = result.batches().next()) {
                    b.close();
                }
            }
            coordinatorTime = String.format(Locale.ROOT, " (time=%.1f ms)", (System.nanoTime() - start) / 1e6);
        }
        List<String> lines = new ArrayList<>();
        String shards = config.members().stream().map(Member::id).collect(Collectors.joining(", "));
        for (FragmentPlanner.Fragment f : fragments) {
            String kind = switch (f.output()) {
                case MERGE -> " (partial aggregate)";
                case REPARTITION -> " (repartitioned)";
                case BROADCAST -> " (broadcast)";
                case MERGE_EVERYWHERE -> " (partial aggregate, merged on every node)";
                case GATHER -> "";
            };
            lines.add("Fragment " + (f.id() + 1) + kind + " on " + shards + ":");
            PlanNode run = fragmentPlan(f);
            PlanNode shown = f.partial() ? FragmentPlanner.shardHalf((AggregateNode) run) : f.topN() ? FragmentPlanner.shardTopN(plan, f.plan(), run) : run;
            QueryPlans.explain(session, shown).forEach(line -> lines.add("  " + line));
            String exchanged = "  -> Exchange " + (f.id() + 1) + ": " + shards + " to " + (f.gathered() ? config.nodeId() : shards)
                    + " over " + exchange.name() + switch (f.output()) {
                        case MERGE -> ", merged by group";
                        case GATHER -> ", concatenated";
                        case REPARTITION -> ", by murmur3 of " + f.keys().stream().map(k -> f.plan().schema().field(k).name()).toList();
                        case BROADCAST -> ", all rows to every node";
                        case MERGE_EVERYWHERE -> ", all groups to every node, merged there";
                    };
            if (!f.gathered() && shuffleGroups() != null) {
                exchanged += ", two-level over groups " + shuffleGroups();
            }
            if (analyzed) {
                exchanged += " " + analyzed(stats.get(f.id()), !f.gathered() && shuffleGroups() != null);
            }
            lines.add(exchanged);
        }
        lines.add("Coordinator on " + config.nodeId() + (fragments.isEmpty() ? ", replicated tables only" : "") + coordinatorTime + ":");
        QueryPlans.explain(session, coordinatorPlan()).forEach(line -> lines.add("  " + line));
        return lines;
    }

    /** What an exchange moved, as EXPLAIN ANALYZE shows it: with {@code hops}, the bytes of each hop of the two-level shuffle too. */
    private static String analyzed(ExchangeStats s, boolean hops) {
        String text = String.format(Locale.ROOT, "(rows=%d, bytes=%d%s, time=%.1f ms", s.rows(), s.bytes(), wire(s.wireBytes()), s.nanos() / 1e6);
        if (hops) {
            text += String.format(Locale.ROOT, "; hop 1 within groups: bytes=%d%s; hop 2 across groups: bytes=%d%s", s.hop1Bytes(),
                    wire(s.hop1WireBytes()), s.bytes() - s.hop1Bytes(), wire(s.wireBytes() < 0 ? -1 : s.wireBytes() - s.hop1WireBytes()));
        }
        if (s.ipcBytes() > 0) {
            text += String.format(Locale.ROOT, "; over CUDA IPC: bytes=%d, over the wire: bytes=%d", s.ipcBytes(), s.bytes() - s.ipcBytes());
        }
        String nodes = s.nodes().isEmpty() ? "" : " [" + String.join("; ", s.nodes()) + "]";
        return text + ")" + (s.slowest() == null ? nodes : " [" + s.slowest().text() + "]");
    }

    private static String wire(long wireBytes) {
        return wireBytes < 0 ? "" : ", wire bytes=" + wireBytes;
    }

    private PlanNode coordinatorPlan() {
        Map<Integer, TableSource> sources = new HashMap<>();
        for (FragmentPlanner.Fragment f : fragments) {
            sources.put(f.id(), snapshot.table(table(f)).orElseThrow());
        }
        return FragmentPlanner.coordinatorPlan(plan, fragments, sources);
    }

    /** A fragment's plan as EXPLAIN shows it: the subtrees whose rows come from exchanges as scans of tables named after them. */
    private PlanNode fragmentPlan(FragmentPlanner.Fragment f) {
        Map<List<Integer>, TableSource> sources = new HashMap<>();
        for (FragmentPlanner.Input input : f.inputs()) {
            sources.put(input.path(), snapshot.table(table(fragments.get(input.fragment()))).orElseThrow());
        }
        return FragmentPlanner.withInputs(f.plan(), sources, f.inputs().stream().filter(FragmentPlanner.Input::partial)
                .map(FragmentPlanner.Input::path).collect(Collectors.toSet()));
    }

    /** Creates each fragment's table; with {@code rows}, runs the fragments and fills the gathered ones' tables from every shard. */
    private void gather(boolean rows) {
        List<Table> tables = new ArrayList<>();
        for (FragmentPlanner.Fragment f : fragments) {
            PlanNode sent = f.partial() ? FragmentPlanner.shardHalf((AggregateNode) f.plan()) : f.plan();
            tables.add(gathered.catalog().create(table(f), ShardFragment.numbered(sent.schema()), false));
        }
        if (rows) {
            execute(tables);
        }
        snapshot = gathered.catalog().snapshot();
    }

    /**
     * Starts every sending fragment on every node, then fills the gathered fragments' tables. A
     * sending fragment that fails (its node died, hangs or raised an error) releases the query's
     * exchanges on every node at once, so that no reader waits for it, and its error is the query's.
     */
    private void execute(List<Table> tables) {
        List<CompletableFuture<long[]>> senders = new ArrayList<>();
        List<Integer> sent = new ArrayList<>();
        List<String> sentBy = new ArrayList<>();
        CompletableFuture<Void> failed = new CompletableFuture<>();
        try {
            for (FragmentPlanner.Fragment f : fragments) {
                if (!f.gathered()) {
                    for (Member node : config.members()) {
                        CompletableFuture<long[]> sender = start(f, node);
                        sender.whenComplete((counts, error) -> {
                            if (error != null && failed.completeExceptionally(error)) {
                                releaseEverywhere(null);
                            }
                        });
                        senders.add(sender);
                        sent.add(f.id());
                        sentBy.add(node.id());
                    }
                }
            }
            for (FragmentPlanner.Fragment f : fragments) {
                if (f.gathered()) {
                    stats.put(f.id(), fill(tables.get(f.id()), f));
                }
            }
            for (int i = 0; i < senders.size(); i++) {
                long[] c = Futures.join(senders.get(i));
                stats.merge(sent.get(i), new ExchangeStats(c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                        SenderSteps.of(sentBy.get(i), c), List.of()), ExchangeStats::plus);
            }
        } catch (RuntimeException e) {
            RuntimeException error = e;
            settle(senders);
            if (failed.isCompletedExceptionally()) {
                error = cause(failed);
                if (error != e) {
                    error.addSuppressed(e);
                }
            } else if (!senders.isEmpty()) {
                releaseEverywhere(e);
            }
            throw error;
        }
    }

    /**
     * Waits, at most the node timeout, for the sending fragments to end: a reader's failure is
     * often a sender's, whose own error (its SQLSTATE) is the one to report.
     */
    private void settle(List<CompletableFuture<long[]>> senders) {
        try {
            CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get(config.nodeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // a sender failed (reported by the caller) or hangs (the reader's error stands)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Drops this query's exchange rows on every node (those that cannot be reached hold none once they restart). */
    private void releaseEverywhere(RuntimeException failure) {
        for (Member node : config.members()) {
            try {
                exchange.release(node, id);
            } catch (RuntimeException suppressed) {
                if (failure != null) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    private static RuntimeException cause(CompletableFuture<?> failed) {
        try {
            failed.join();
            throw new IllegalStateException("not failed");
        } catch (CompletionException e) {
            return e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private FragmentTicket ticket(FragmentPlanner.Fragment f) {
        List<FragmentTicket.Input> inputs = f.inputs().stream()
                .map(input -> new FragmentTicket.Input(input.path(), exchangeId(input.fragment()), shuffleGroups(), input.partial())).toList();
        FragmentTicket.Output output = f.gathered() ? null : new FragmentTicket.Output(exchangeId(f.id()), f.keys(), shuffleGroups());
        return new FragmentTicket(FragmentPlanner.fingerprint(f.plan()), sql, inputs, output, f.partial(), f.topN(), session.executor(),
                statistics, List.copyOf(rotations));
    }

    /** The shards' groups when rows move by the two-level shuffle (configured, over more than one group); null for one level. */
    private List<Integer> shuffleGroups() {
        List<Integer> groups = config.groupNumbers();
        return config.twoLevelShuffle() && groups.stream().distinct().count() > 1 ? groups : null;
    }

    private String exchangeId(int fragment) {
        return id + "/" + (fragment + 1);
    }

    /**
     * Starts {@code f}, which sends its rows to the shards, on {@code node}: over the exchange, or on
     * a thread of this node. Either way on a thread of its own: a request to another node waits for
     * a round trip or two (UCX asks the node's worker address first), which the other starts and the
     * gathered fragments' requests do not wait for.
     */
    private CompletableFuture<long[]> start(FragmentPlanner.Fragment f, Member node) {
        FragmentTicket ticket = ticket(f);
        long asked = System.nanoTime();
        if (!node.id().equals(config.nodeId())) {
            long logIndex = shard.logApplied();
            return CompletableFuture.supplyAsync(() -> {
                try (BatchStream answer = exchange.fetch(node, logIndex, ticket.text())) {
                    return sent(answer, asked);
                }
            }, LOCAL_SENDERS);
        }
        return CompletableFuture.supplyAsync(() -> {
            try (BatchStream answer = ShardFragment.run(ticket, plan, shard, exchange, config.members(), shard.database().allocator())) {
                return sent(answer, asked);
            }
        }, LOCAL_SENDERS);
    }

    /**
     * The counts in a sending fragment's answer ({@link ShardFragment#SENT}; batches without rows are
     * its node's heartbeats), then the time since it was {@code asked} for.
     */
    private static long[] sent(BatchStream answer, long asked) {
        List<Object> counts = Batches.drainRows(answer).get(0);
        return LongStream.concat(counts.stream().mapToLong(v -> (Long) v), LongStream.of(System.nanoTime() - asked)).toArray();
    }

    private ExchangeStats fill(Table table, FragmentPlanner.Fragment f) {
        long start = System.nanoTime();
        FragmentTicket ticket = ticket(f);
        String text = ticket.text();
        List<Member> members = config.members();
        CountedRows[] opened = new CountedRows[members.size()];
        List<CountedRows> streams = new ArrayList<>();
        try {
            // the other shards start first: this node's own run plans the query before it returns
            for (int s = 0; s < members.size(); s++) {
                if (!members.get(s).id().equals(config.nodeId())) {
                    opened[s] = new CountedRows(exchange.fetch(members.get(s), shard.logApplied(), text), table.schema(), true);
                    streams.add(opened[s]);
                }
            }
            for (int s = 0; s < members.size(); s++) {
                if (opened[s] == null) {
                    opened[s] = new CountedRows(localRows(ticket), table.schema(), false);
                    streams.add(opened[s]);
                }
            }
            long rows = 0;
            long bytes = 0;
            long wireBytes = -1;
            List<String> nodes = new ArrayList<>();
            for (int s = 0; s < opened.length; s++) {
                CountedRows counted = opened[s];
                table.append(counted);
                rows += counted.rows;
                bytes += counted.bytes;
                if (counted.source instanceof WireMeasured measured) {
                    wireBytes = Math.max(wireBytes, 0) + measured.wireBytes();
                }
                NodeTimes times = counted.source instanceof NodeTimes.Reported reported ? reported.nodeTimes() : null;
                if (times != null) {
                    nodes.add(times.text(members.get(s).id(), System.nanoTime() - start));
                }
            }
            return new ExchangeStats(rows, bytes, wireBytes, System.nanoTime() - start, 0, 0, 0, null, nodes);
        } finally {
            streams.forEach(BatchStream::close);
        }
    }

    /** This node's run of a gathered fragment: at once when it reads no exchange, else once the first rows are asked for (they wait for the senders). */
    private BatchStream localRows(FragmentTicket ticket) {
        if (ticket.inputs().isEmpty()) {
            return ShardFragment.run(ticket, plan, shard, exchange, config.members(), shard.database().allocator());
        }
        return new LaterRows(ticket);
    }

    /** A gathered fragment's run on this node, begun once its rows are first asked for. */
    private final class LaterRows implements BatchStream, NodeTimes.Reported {
        private final FragmentTicket ticket;
        private BatchStream rows;

        LaterRows(FragmentTicket ticket) {
            this.ticket = ticket;
        }

        private BatchStream rows() {
            if (rows == null) {
                rows = ShardFragment.run(ticket, plan, shard, exchange, config.members(), shard.database().allocator());
            }
            return rows;
        }

        @Override
        public Schema schema() {
            return rows().schema();
        }

        @Override
        public Batch next() {
            return rows().next();
        }

        @Override
        public NodeTimes nodeTimes() {
            return rows instanceof NodeTimes.Reported reported ? reported.nodeTimes() : null;
        }

        @Override
        public void close() {
            if (rows != null) {
                rows.close();
            }
        }
    }

    private static String table(FragmentPlanner.Fragment f) {
        return (f.gathered() ? "fragment_" : "exchange_") + (f.id() + 1);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (snapshot != null) {
                snapshot.close();
            }
        } finally {
            try {
                gathered.close();
            } finally {
                session.close();
            }
        }
    }

    /** A fragment's rows under the gathered table's column names, counted (bytes only of those that came over the wire). */
    private static final class CountedRows implements BatchStream {
        private final BatchStream source;
        private final Schema schema;
        private final boolean wire;
        private long rows;
        private long bytes;

        CountedRows(BatchStream source, Schema schema, boolean wire) {
            this.source = source;
            this.schema = schema;
            this.wire = wire;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public Batch next() {
            Batch batch = source.next();
            if (batch == null) {
                return null;
            }
            rows += batch.rowCount();
            for (FieldVector v : batch.vectors()) {
                bytes += wire ? v.getBufferSize() : 0;
            }
            return new Batch(schema, batch.vectors(), batch.dictionaries(), batch.rowCount());
        }

        @Override
        public void close() {
            source.close();
        }
    }
}
