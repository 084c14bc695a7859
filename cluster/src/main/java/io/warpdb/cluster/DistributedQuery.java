package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.CatalogSnapshot;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.vector.FieldVector;

/**
 * One query run as fragments on the shards and the rest on the coordinator ({@link FragmentPlanner}):
 * every shard runs each fragment over its rows and streams the result over the {@link Exchange}
 * (this node's own without the wire) into a table of a database of this query alone; the
 * coordinator's plan scans those tables, and this node's copies of replicated tables. Counts the
 * rows, bytes and time of each exchange for EXPLAIN ANALYZE.
 */
final class DistributedQuery implements AutoCloseable {
    /**
     * What one fragment's exchange moved: rows and Arrow bytes received from all shards, the bytes
     * their frames took on the wire (after compression; -1 where the transport does not count
     * them), and the time until the last arrived.
     */
    record ExchangeStats(long rows, long bytes, long wireBytes, long nanos) {
    }

    private final ClusterConfig config;
    private final Session session;
    private final ShardStore shard;
    private final Exchange exchange;
    private final String sql;
    private final PlanNode plan;
    private final Schema schema;
    private final List<FragmentPlanner.Fragment> fragments;
    private final Database gathered;
    private final List<ExchangeStats> stats = new ArrayList<>();
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
        this.plan = planned.plan();
        this.schema = planned.schema();
        this.fragments = FragmentPlanner.fragments(plan, catalog);
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
     * EXPLAIN's lines: each fragment with the nodes that run it and the exchange that brings its
     * rows here, then the coordinator's plan; {@code analyzed}: after the query ran to its end,
     * with the rows, bytes and time of each exchange and the coordinator's time.
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
            lines.add("Fragment " + (f.id() + 1) + (f.partial() ? " (partial aggregate)" : "") + " on " + shards + ":");
            QueryPlans.explain(session, f.plan()).forEach(line -> lines.add("  " + line));
            String exchanged = "  -> Exchange " + (f.id() + 1) + ": " + shards + " to " + config.nodeId() + " over " + exchange.name()
                    + (f.partial() ? ", merged by group" : ", concatenated");
            if (analyzed) {
                ExchangeStats s = stats.get(f.id());
                String wire = s.wireBytes() < 0 ? "" : ", wire bytes=" + s.wireBytes();
                exchanged += String.format(Locale.ROOT, " (rows=%d, bytes=%d%s, time=%.1f ms)", s.rows(), s.bytes(), wire, s.nanos() / 1e6);
            }
            lines.add(exchanged);
        }
        lines.add("Coordinator on " + config.nodeId() + (fragments.isEmpty() ? ", replicated tables only" : "") + coordinatorTime + ":");
        QueryPlans.explain(session, coordinatorPlan()).forEach(line -> lines.add("  " + line));
        return lines;
    }

    private PlanNode coordinatorPlan() {
        Map<Integer, TableSource> sources = new HashMap<>();
        for (FragmentPlanner.Fragment f : fragments) {
            sources.put(f.id(), snapshot.table(table(f)).orElseThrow());
        }
        return FragmentPlanner.coordinatorPlan(plan, fragments, sources);
    }

    /** Creates each fragment's table; with {@code rows}, fills it from every shard. */
    private void gather(boolean rows) {
        for (FragmentPlanner.Fragment f : fragments) {
            Schema columns = f.plan().schema();
            List<Field> named = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                named.add(new Field("c" + c, columns.type(c))); // a join's columns may share names
            }
            Table table = gathered.catalog().create(table(f), new Schema(named), false);
            if (rows) {
                stats.add(fill(table, f));
            }
        }
        snapshot = gathered.catalog().snapshot();
    }

    private ExchangeStats fill(Table table, FragmentPlanner.Fragment f) {
        long start = System.nanoTime();
        String ticket = new FragmentTicket(FragmentPlanner.fingerprint(f.plan()), sql).text();
        List<CountedRows> streams = new ArrayList<>();
        try {
            for (Member node : config.members()) {
                boolean self = node.id().equals(config.nodeId());
                streams.add(new CountedRows(self ? localRows(f.plan()) : exchange.fetch(node, ticket), table.schema(), !self));
            }
            long rows = 0;
            long bytes = 0;
            long wireBytes = -1;
            for (CountedRows s : streams) {
                table.append(s);
                rows += s.rows;
                bytes += s.bytes;
                if (s.source instanceof WireMeasured measured) {
                    wireBytes = Math.max(wireBytes, 0) + measured.wireBytes();
                }
            }
            return new ExchangeStats(rows, bytes, wireBytes, System.nanoTime() - start);
        } finally {
            streams.forEach(BatchStream::close);
        }
    }

    private BatchStream localRows(PlanNode fragment) {
        Session local = shard.database().newLocalSession();
        return new ResultStream(QueryPlans.run(local, fragment, fragment.schema()), local);
    }

    private static String table(FragmentPlanner.Fragment f) {
        return "fragment_" + (f.id() + 1);
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
