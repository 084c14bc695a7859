package io.warpdb.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/**
 * An entry of the cluster's Raft log, as JSON. {@code CREATE}: a CREATE TABLE ({@code sql}, the
 * statement every node runs on its shard; {@code table}; {@code distribution}). {@code DROP}: a
 * DROP TABLE ({@code sql}, {@code table}). {@code COMMIT}: publishes load {@code load} of
 * {@code table}, whose segments every shard has staged durably ({@code shardRows}: how many rows
 * each node staged, by node id). {@code ABORT}: discards what the shards staged for {@code load}.
 * {@code ABANDON}: discards every load that node {@code node} coordinated and did not commit or
 * abort, which a node appends when it starts, for the loads its previous run left behind.
 */
record ClusterCommand(String op, String table, String sql, String distribution, String load, Map<String, Long> shardRows,
        String node) {
    static final String CREATE = "CREATE";
    static final String DROP = "DROP";
    static final String COMMIT = "COMMIT";
    static final String ABORT = "ABORT";
    static final String ABANDON = "ABANDON";

    private static final ObjectMapper JSON = new ObjectMapper();

    static ClusterCommand create(String table, String sql, String distribution) {
        return new ClusterCommand(CREATE, table, sql, distribution, null, null, null);
    }

    static ClusterCommand drop(String table, String sql) {
        return new ClusterCommand(DROP, table, sql, null, null, null, null);
    }

    static ClusterCommand commit(String table, String load, Map<String, Long> shardRows) {
        return new ClusterCommand(COMMIT, table, null, null, load, Map.copyOf(shardRows), null);
    }

    static ClusterCommand abort(String table, String load) {
        return new ClusterCommand(ABORT, table, null, null, load, null, null);
    }

    static ClusterCommand abandon(String node) {
        return new ClusterCommand(ABANDON, null, null, null, null, null, node);
    }

    /** The rows node {@code node} staged for this COMMIT's load; -1 when the entry does not say (written by an older version). */
    long rowsStagedOn(String node) {
        return shardRows == null ? -1 : shardRows.getOrDefault(node, 0L);
    }

    /** A new load's name: the coordinating node's id, a dot, and a random UUID (which has no dot). */
    static String newLoad(String coordinator) {
        return coordinator + "." + UUID.randomUUID();
    }

    /** The node that coordinates load {@code load} (see {@link #newLoad}). */
    static String coordinatorOf(String load) {
        return load.substring(0, Math.max(0, load.lastIndexOf('.')));
    }

    byte[] toBytes() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static ClusterCommand of(byte[] bytes) {
        try {
            return JSON.readValue(bytes, ClusterCommand.class);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a cluster command: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }
}
