package io.warpdb.cluster;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.storage.Table;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node's shard: its own durable WarpDB database, holding its part of every hash-distributed
 * table and all of every replicated one, and, durably in the same database, the loads staged on it
 * that the log has not committed or aborted yet. It also remembers, as a property of that
 * database, the last log index whose effects it holds, so that a restarted node's log replay
 * applies each entry once.
 */
final class ShardStore {
    private static final String APPLIED = "cluster.applied";

    private final String nodeId;
    private final Database database;
    /** Hashes the rows this shard sends to the others in a repartition. */
    private final HashPartitioner partitioner;
    /**
     * The log index of the last command this node has applied (entries without one, a leader's
     * metadata or a configuration, do not count): what requests from coordinators wait for.
     */
    private long logApplied;
    /** The loads dropped here since this node started: a staging of one that ends later drops its rows ({@link #stage}). */
    private final Set<String> dropped = ConcurrentHashMap.newKeySet();

    ShardStore(String nodeId, Database database, HashPartitioner partitioner) {
        this.nodeId = nodeId;
        this.database = database;
        this.partitioner = partitioner;
    }

    String nodeId() {
        return nodeId;
    }

    Database database() {
        return database;
    }

    HashPartitioner partitioner() {
        return partitioner;
    }

    /** The last log index applied to this shard; 0 for a new one. */
    long appliedIndex() {
        String v = database.catalog().properties().get(APPLIED);
        return v == null ? 0 : Long.parseLong(v);
    }

    void setAppliedIndex(long index) {
        database.catalog().setProperty(APPLIED, Long.toString(index));
    }

    /** This node has applied the command at log index {@code index}: wakes the requests that wait for it. */
    synchronized void logApplied(long index) {
        if (index > logApplied) {
            logApplied = index;
            notifyAll();
        }
    }

    /** The log index of the last command this node has applied. */
    synchronized long logApplied() {
        return logApplied;
    }

    /**
     * Waits until this node has applied the commands up to log index {@code index}, as a coordinator
     * had when it asked, so that a shard runs its part of the statement on the same tables and
     * loads; fails with SQLSTATE 08006 past {@code timeout}.
     */
    synchronized void awaitLog(long index, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (logApplied < index) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new WarpException(SqlState.CONNECTION_FAILURE, "a shard had applied the cluster log up to index " + logApplied
                        + ", not yet " + index + ", after " + timeout.toSeconds() + " s (node.timeout.seconds)");
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WarpException(SqlState.QUERY_CANCELED, "interrupted waiting for the cluster log");
            }
        }
    }

    /** Runs a statement on this shard alone. */
    void run(String sql) {
        try (Session session = database.newLocalSession(); StatementResult result = session.execute(sql, List.of())) {
            result.updateCount();
        }
    }

    boolean hasTable(String name) {
        return database.catalog().table(name).isPresent();
    }

    /**
     * Writes a load's rows for {@code table} to this shard, unpublished but durable (see {@link
     * Table#stage}). Several stagings of one load may run at once (a parallel COPY: every node
     * sends each node its rows); each adds its rows to the load in one commit. A staging that ends
     * after the load was dropped here ({@link #abort}, {@link #discard}: a sender slower than the
     * coordinator's decision) drops what it staged and fails.
     */
    long stage(String load, String table, BatchStream rows) {
        Table t = database.catalog().table(table)
                .orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + table + " does not exist"));
        long staged = t.stage(load, rows);
        if (dropped.contains(load)) {
            database.catalog().discardStaged(load, Map.of());
            throw new WarpException(SqlState.QUERY_CANCELED, "load " + load + " was aborted on node " + nodeId + " while it staged rows");
        }
        return staged;
    }

    /**
     * Applies the COMMIT of {@code load} at log index {@code index}: publishes what this shard staged
     * for it, in the same commit as the applied index, so that a crash replays it whole or not at all.
     * A shard that was to stage {@code expectedRows} (-1: not known) and holds another number (none at
     * all, when its staging was lost) fails loudly, naming the load: the cluster's copies no longer agree.
     */
    void publish(String load, long expectedRows, long index) {
        OptionalLong published = database.catalog().publishStaged(load, Map.of(APPLIED, Long.toString(index)));
        if (published.isEmpty()) {
            setAppliedIndex(index);
        }
        long rows = published.orElse(0);
        if (expectedRows >= 0 && rows != expectedRows) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "shard " + nodeId + " published " + rows + " rows of load " + load
                    + ", not the " + expectedRows + " it had staged: its part of the load is lost");
        }
    }

    /** Applies the ABORT of {@code load} at log index {@code index}: drops what this shard staged for it, if anything. */
    void discard(String load, long index) {
        dropped.add(load);
        if (!database.catalog().discardStaged(load, Map.of(APPLIED, Long.toString(index)))) {
            setAppliedIndex(index);
        }
    }

    /** Applies the ABANDON of {@code coordinator} at log index {@code index}: drops every load it staged here. */
    void abandon(String coordinator, long index) {
        for (String load : database.catalog().stagedLoads()) {
            if (ClusterCommand.coordinatorOf(load).equals(coordinator)) {
                database.catalog().discardStaged(load, Map.of());
            }
        }
        setAppliedIndex(index);
    }

    /** Drops what this shard staged for {@code load}, at the coordinator's word before it decided the load's fate. */
    void abort(String load) {
        dropped.add(load);
        database.catalog().discardStaged(load, Map.of());
    }
}
