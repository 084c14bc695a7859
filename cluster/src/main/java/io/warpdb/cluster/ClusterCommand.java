package io.warpdb.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;

/**
 * An entry of the cluster's Raft log, as JSON. {@code CREATE}: a CREATE TABLE ({@code sql}, the
 * statement every node runs on its shard; {@code table}; {@code distribution}). {@code DROP}: a
 * DROP TABLE ({@code sql}, {@code table}). {@code COMMIT}: publishes load {@code load} of
 * {@code table}, whose segments every shard has staged.
 */
record ClusterCommand(String op, String table, String sql, String distribution, String load) {
    static final String CREATE = "CREATE";
    static final String DROP = "DROP";
    static final String COMMIT = "COMMIT";

    private static final ObjectMapper JSON = new ObjectMapper();

    static ClusterCommand create(String table, String sql, String distribution) {
        return new ClusterCommand(CREATE, table, sql, distribution, null);
    }

    static ClusterCommand drop(String table, String sql) {
        return new ClusterCommand(DROP, table, sql, null, null);
    }

    static ClusterCommand commit(String table, String load) {
        return new ClusterCommand(COMMIT, table, null, null, load);
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
