package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementInterceptor;
import io.warpdb.sql.StatementResult;
import io.warpdb.sql.TableReads;
import io.warpdb.sql.ddl.DdlParser;
import io.warpdb.sql.ddl.DdlStatement;
import io.warpdb.sql.ddl.Distribution;
import io.warpdb.storage.Table;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coordinates the statements a node's clients send. DDL goes through the Raft log, which every
 * node applies to its shard. A query runs as fragments on the shards and the rest here
 * ({@link FragmentPlanner}, {@link DistributedQuery}); EXPLAIN shows them. A query with
 * parameters (or one a shard plans otherwise) sends each shard the SQL text of what it reads of
 * each distributed table (the columns and the column-against-constant conditions of its scans,
 * {@link TableReads}), gathers the rows over the {@link Exchange} into a database of this
 * statement alone (replicated tables from this node's own copy; every table with all its
 * columns, those the statement does not read as placeholders: {@link WidenedRows}), and runs it
 * there. INSERT and COPY run that way into an empty copy of the target, whose rows then go to
 * their shards by the murmur3 hash of the distribution column (replicated: to all), staged
 * unpublished, and one COMMIT entry in the log publishes them on every shard; a COPY from text
 * files that every node sees is parsed by every node instead, each a byte range of each file,
 * and staged and committed the same way ({@link ParallelCopy}).
 */
final class Coordinator implements StatementInterceptor {
    private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
    private static final Pattern LEADING = Pattern.compile("(?s)^(?:\\s+|--[^\\n]*\\n?|/\\*.*?\\*/|\\()*([A-Za-z]+)");
    private static final Pattern EXPLAIN = Pattern.compile("(?is)^\\s*EXPLAIN\\s+(ANALYZE\\s+)?(.*)$");
    private static final Pattern INSERT_TARGET = Pattern.compile(
            "(?is)^\\s*INSERT\\s+INTO\\s+(?:(?:\"[^\"]+\"|[A-Za-z_][\\w$]*)\\s*\\.\\s*)?(\"[^\"]+\"|[A-Za-z_][\\w$]*)");

    private final ClusterConfig config;
    private final ClusterCatalog catalog;
    private final RaftLog log;
    private final ShardStore shard;
    private final Exchange exchange;
    private final AtomicLong queries = new AtomicLong();

    Coordinator(ClusterConfig config, ClusterCatalog catalog, RaftLog log, ShardStore shard, Exchange exchange) {
        this.config = config;
        this.catalog = catalog;
        this.log = log;
        this.shard = shard;
        this.exchange = exchange;
    }

    @Override
    public StatementResult intercept(Session session, String sql, List<Object> parameters) {
        log.catchUp();
        DdlStatement ddl = DdlParser.parse(sql);
        if (ddl != null) {
            return ddl(session, ddl, sql, parameters);
        }
        Matcher first = LEADING.matcher(sql);
        String keyword = first.find() ? first.group(1).toUpperCase(Locale.ROOT) : "";
        return switch (keyword) {
            case "SET" -> null;
            case "EXPLAIN" -> explain(session, sql, parameters);
            case "INSERT" -> write(session, insertTarget(sql), sql, parameters);
            case "UPDATE", "DELETE", "CANCEL" -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, keyword
                    + " is not supported in cluster mode yet");
            default -> query(session, sql, parameters);
        };
    }

    private StatementResult ddl(Session session, DdlStatement ddl, String sql, List<Object> parameters) {
        if (ddl instanceof DdlStatement.CreateTable create) {
            if (create.query() != null) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... AS is not supported in cluster mode yet");
            }
            if (create.ifNotExists() && catalog.table(create.name()).isPresent()) {
                return StatementResult.update(0);
            }
            if (catalog.table(create.name()).isEmpty()) {
                validate(sql, parameters);
            }
            // Like Greenplum: without a distribution, a table is hashed on its first column.
            Distribution distribution = create.distribution() != null ? create.distribution()
                    : Distribution.hash(create.schema().field(0).name());
            log.append(ClusterCommand.create(create.name(), sql, distribution.toString()));
            return StatementResult.update(0);
        }
        if (ddl instanceof DdlStatement.DropTable drop) {
            if (drop.ifExists() && catalog.table(drop.name()).isEmpty()) {
                return StatementResult.update(0);
            }
            log.append(ClusterCommand.drop(drop.name(), sql));
            return StatementResult.update(0);
        }
        if (ddl instanceof DdlStatement.Copy copy) {
            return copy(session, copy, sql, parameters);
        }
        if (ddl instanceof DdlStatement.CreateIndex) {
            return null; // informational: checked against this node's copy of the schema
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "views are not supported in cluster mode yet");
    }

    /** Runs {@code sql} on a scratch database, so that a statement one database refuses fails here, before the log has it. */
    private void validate(String sql, List<Object> parameters) {
        try (Database scratch = Database.inMemoryWithin("cluster-check-" + queries.incrementAndGet(), shard.database());
                Session session = scratch.newLocalSession()) {
            session.execute(sql, parameters).close();
        }
    }

    private static String insertTarget(String sql) {
        Matcher m = INSERT_TARGET.matcher(sql);
        if (!m.find()) {
            throw new WarpException(SqlState.SYNTAX_ERROR, "expected INSERT INTO table");
        }
        String name = m.group(1);
        return name.startsWith("\"") ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
    }

    /**
     * Runs a query as fragments on the shards and the rest here ({@link DistributedQuery}); with
     * parameters, or when a shard planned it without one of its fragments, over the rows its
     * reads gather from the shards.
     */
    private StatementResult query(Session session, String sql, List<Object> parameters) {
        Optional<QueryPlans.QueryPlan> planned = parameters.isEmpty() ? QueryPlans.of(session, sql, parameters) : Optional.empty();
        if (planned.isPresent()) {
            try {
                return distributed(session, sql, planned.get()).run();
            } catch (WarpException e) {
                if (!FragmentTicket.MISSING.equals(e.getMessage())) {
                    throw e;
                }
                // correct, but every table the query reads comes here whole: a plan the shards do not share is a bug to see
                LOG.warn("a shard planned the query without one of its fragments; it runs here over the gathered tables: {}", sql);
            }
        }
        Database gathered = gather(session, sql, parameters, null);
        try {
            Session local = localSession(session, gathered);
            StatementResult result = local.execute(sql, parameters);
            if (!result.isQuery()) {
                gathered.close();
                return result;
            }
            BufferAllocator handle = shard.database().allocator().newChildAllocator("cluster-query", 0, 0);
            return StatementResult.query(result.schema(), new ResultStream(result, gathered), handle);
        } catch (RuntimeException e) {
            gathered.close();
            throw e;
        }
    }

    private DistributedQuery distributed(Session session, String sql, QueryPlans.QueryPlan planned) {
        return new DistributedQuery(config, catalog, localSession(session, shard.database()), shard, exchange, sql, planned,
                "cluster-" + queries.incrementAndGet());
    }

    /** EXPLAIN [ANALYZE] of a query: its fragments, where they run and the exchanges between them. */
    private StatementResult explain(Session session, String sql, List<Object> parameters) {
        Matcher explain = EXPLAIN.matcher(sql);
        Optional<QueryPlans.QueryPlan> planned = explain.matches() && parameters.isEmpty()
                ? QueryPlans.of(session, explain.group(2), parameters) : Optional.empty();
        if (planned.isEmpty()) {
            return query(session, sql, parameters);
        }
        try (DistributedQuery query = distributed(session, explain.group(2), planned.get())) {
            return QueryPlans.lines(session, query.explain(explain.group(1) != null));
        }
    }

    /**
     * A database of this statement alone holding, for each table it reads, the rows it reads
     * gathered from the shards; with {@code target} (INSERT, COPY) also an empty copy of that table.
     */
    private Database gather(Session session, String sql, List<Object> parameters, String target) {
        Database gathered = Database.inMemoryWithin("cluster-" + queries.incrementAndGet(), shard.database());
        try {
            gatherInto(gathered, session, sql, parameters, target);
            return gathered;
        } catch (RuntimeException e) {
            gathered.close();
            throw e;
        }
    }

    /** Creates in {@code gathered} the tables {@link #gather(Session, String, List, String)} describes. */
    private void gatherInto(Database gathered, Session session, String sql, List<Object> parameters, String target) {
        Map<String, TableReads.Read> reads = TableReads.of(session, sql, parameters);
        if (target != null) {
            if (reads.keySet().stream().anyMatch(t -> t.equalsIgnoreCase(target))) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "an INSERT that reads its own target is not supported"
                        + " in cluster mode yet");
            }
            Table table = localTable(target);
            gathered.catalog().create(table.name(), table.schema(), false);
            String defaults = "default." + table.name().toUpperCase(Locale.ROOT);
            String value = shard.database().catalog().properties().get(defaults);
            if (value != null) {
                gathered.catalog().setProperty(defaults, value);
            }
        }
        for (TableReads.Read read : reads.values()) {
            Table table = gathered.catalog().create(read.table(), localTable(read.table()).schema(), false);
            boolean replicated = catalog.table(read.table()).map(t -> t.distribution().replicated()).orElse(true);
            List<Member> sources = replicated ? List.of(config.self()) : config.members();
            List<BatchStream> streams = new ArrayList<>();
            try {
                for (Member source : sources) {
                    streams.add(new WidenedRows(rowsOf(source, read.query()), table.schema(), gathered.allocator()));
                }
                for (BatchStream rows : streams) {
                    table.append(rows);
                }
            } finally {
                streams.forEach(BatchStream::close);
            }
        }
        // A statement whose plan reads nothing of a table it names (WHERE 1 = 0) still validates against it.
        for (Table local : shard.database().catalog().tables()) {
            gathered.catalog().create(local.name(), local.schema(), true);
        }
    }

    private Table localTable(String name) {
        return shard.database().catalog().table(name)
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " does not exist"));
    }

    /** The rows of a shard-local query on {@code node}: this node's without the wire. */
    private BatchStream rowsOf(Member node, String sql) {
        if (!node.id().equals(config.nodeId())) {
            return exchange.fetch(node, shard.logApplied(), sql);
        }
        Session local = shard.database().newLocalSession();
        return new ResultStream(local.execute(sql, List.of()), () -> { });
    }

    private static Session localSession(Session client, Database database) {
        Session local = database.newLocalSession();
        local.setExecutor(client.executor());
        local.setParallelism(client.parallelism());
        local.setQueryTimeoutMillis(client.queryTimeoutMillis());
        return local;
    }

    /**
     * COPY: parsed by every node at once where it can ({@link ParallelCopy}; an attempt whose ranges
     * did not meet is aborted and made again with them corrected), else by this node as an INSERT is.
     */
    private StatementResult copy(Session session, DdlStatement.Copy copy, String sql, List<Object> parameters) {
        ClusterCatalog.TableEntry entry = entry(copy.table());
        Table table = localTable(entry.name());
        List<Integer> keys = entry.distribution().replicated() ? List.of() : List.of(entry.distribution().columnIn(table.schema()));
        Optional<ParallelCopy> parallel = config.parallelCopy()
                ? ParallelCopy.plan(config, shard, exchange, table, keys, copy) : Optional.empty();
        if (parallel.isEmpty()) {
            return write(session, copy.table(), sql, parameters);
        }
        while (true) {
            try {
                load(entry, ClusterCommand.newLoad(config.nodeId()), parallel.get()::stage);
                return StatementResult.update(parallel.get().rows());
            } catch (ParallelCopy.Misaligned e) {
                LOG.info("COPY into {}: {}; loading again", entry.name(), e.getMessage());
            }
        }
    }

    private ClusterCatalog.TableEntry entry(String target) {
        return catalog.table(target).orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + target + " does not exist"));
    }

    /** INSERT or COPY into {@code target}: the statement's rows, hashed to their shards, staged there and committed by one log entry. */
    private StatementResult write(Session session, String target, String sql, List<Object> parameters) {
        ClusterCatalog.TableEntry entry = entry(target);
        String load = ClusterCommand.newLoad(config.nodeId());
        try (LoadScratch scratch = LoadScratch.create(config.dataDir(), load, shard.database())) {
            Database gathered = scratch.database();
            gatherInto(gathered, session, sql, parameters, entry.name());
            long rows;
            try (StatementResult result = localSession(session, gathered).execute(sql, parameters)) {
                rows = result.updateCount();
            }
            load(entry, load, l -> stageAll(gathered, entry, l, config.members()));
            return StatementResult.update(rows);
        }
    }

    /**
     * The two phases of load {@code load} of {@code entry}: {@code staging} stages its rows on the
     * shards and says how many each staged, by node id; then one COMMIT entry publishes them. When
     * staging fails, or the COMMIT cannot be appended, the load is aborted on every shard and in the
     * log, and the failure thrown.
     */
    private void load(ClusterCatalog.TableEntry entry, String load, Function<String, Map<String, Long>> staging) {
        Map<String, Long> staged;
        try {
            staged = staging.apply(load);
        } catch (RuntimeException e) {
            for (Member m : config.members()) {
                try {
                    abort(m, load);
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            decide(ClusterCommand.abort(entry.name(), load), e); // for the shards the aborts did not reach
            throw e;
        }
        try {
            log.append(ClusterCommand.commit(entry.name(), load, staged));
        } catch (RuntimeException e) {
            // The COMMIT may be in the log all the same: only an entry after it may undo the staging.
            decide(ClusterCommand.abort(entry.name(), load), e);
            throw e;
        }
    }

    /** Appends {@code abort}, the fate of a load that failed with {@code failure}; a log that refuses it is added to the failure. */
    private void decide(ClusterCommand abort, RuntimeException failure) {
        try {
            log.append(abort);
        } catch (RuntimeException suppressed) {
            failure.addSuppressed(suppressed); // the staging stays until this node restarts and abandons its loads
        }
    }

    /**
     * Stages the gathered target's rows on every shard at once, each shard's by hash (or all of them
     * for a replicated table) from a scan of its own; fails with the first shard's error once every
     * shard is done.
     *
     * @return the rows staged on each node, by node id
     */
    private Map<String, Long> stageAll(Database gathered, ClusterCatalog.TableEntry entry, String load, List<Member> members) {
        Table table = gathered.catalog().table(entry.name()).orElseThrow();
        List<Integer> keys = entry.distribution().replicated() ? List.of() : List.of(entry.distribution().columnIn(table.schema()));
        String scan = "SELECT * FROM " + TableReads.identifier(table.name());
        List<CompletableFuture<Long>> staged = new ArrayList<>();
        for (int s = 0; s < members.size(); s++) {
            int shardIndex = s;
            staged.add(CompletableFuture.supplyAsync(() -> {
                try (Session session = gathered.newLocalSession();
                        ShardRows rows = new ShardRows(new ResultStream(session.execute(scan, List.of()), () -> { }), keys,
                                shardIndex, members.size(), gathered.allocator())) {
                    stage(members.get(shardIndex), load, entry.name(), rows);
                    return rows.rowsReturned();
                }
            }, runnable -> new Thread(runnable, "cluster-stage-" + members.get(shardIndex).id()).start()));
        }
        RuntimeException failure = null;
        Map<String, Long> rowsByNode = new HashMap<>();
        for (int s = 0; s < members.size(); s++) {
            try {
                rowsByNode.put(members.get(s).id(), staged.get(s).join());
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                if (failure == null) {
                    failure = cause;
                } else {
                    failure.addSuppressed(cause);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return rowsByNode;
    }

    private void stage(Member node, String load, String table, BatchStream rows) {
        if (node.id().equals(config.nodeId())) {
            shard.stage(load, table, rows);
        } else {
            exchange.stage(node, shard.logApplied(), load, table, rows);
        }
    }

    private void abort(Member node, String load) {
        if (node.id().equals(config.nodeId())) {
            shard.abort(load);
        } else {
            exchange.abort(node, load);
        }
    }
}
