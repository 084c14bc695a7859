package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A 3-node cluster of separate {@code warpdb node} processes on loopback: distributed and
 * replicated tables loaded by INSERT and COPY through different nodes, queries through every
 * node equal to one WarpDB's answers, a load that fails on an unreachable shard leaving nothing
 * visible, and a stopped node catching up from the log when it comes back; over each transport
 * (UCX with the rows compressed).
 */
@Execution(value = ExecutionMode.CONCURRENT, reason = "waits on node processes more than it computes: beside the other cluster tests")
class ClusterLoopbackTest {
    private static final int NODES = 3;

    @TempDir
    Path dir;

    private final List<String> queries = List.of(
            "SELECT COUNT(*), SUM(o_total), MIN(o_note), MAX(o_day) FROM orders",
            "SELECT c_name, COUNT(*), SUM(o_total) FROM orders JOIN cust ON o_cust = c_id WHERE o_total > 2 GROUP BY c_name ORDER BY c_name",
            "SELECT o_id, o_note FROM orders WHERE o_id BETWEEN 3 AND 40 AND o_note IS NOT NULL ORDER BY o_id DESC LIMIT 5",
            "SELECT o_cust, AVG(o_total), COUNT(DISTINCT o_note) FROM orders GROUP BY o_cust HAVING COUNT(*) > 1 ORDER BY 1",
            "SELECT c_name FROM cust WHERE c_id NOT IN (SELECT o_cust FROM orders WHERE o_total < 50) ORDER BY c_name",
            "SELECT a.o_id, b.o_id FROM orders a JOIN orders b ON a.o_cust = b.o_cust AND a.o_id < b.o_id WHERE a.o_day = DATE '2024-01-02' ORDER BY 1, 2",
            "SELECT a.o_id, b.o_total, c_name FROM orders a JOIN orders b ON a.o_id = b.o_id LEFT JOIN cust ON a.o_cust = c_id"
                    + " WHERE a.o_cust <= 20 ORDER BY 1",
            "SELECT o_id, COUNT(*), AVG(o_total), MAX(o_note) FROM orders GROUP BY o_id ORDER BY o_id LIMIT 7",
            "SELECT o_day, COUNT(o_note), SUM(o_total), MIN(o_total), MAX(o_id) FROM orders GROUP BY o_day ORDER BY 1",
            "SELECT COUNT(*), SUM(o_total) FROM orders WHERE o_total > 1000",
            // joins off the distribution column: both sides repartitioned on the key, NULL keys included
            "SELECT a.o_id, b.o_id FROM orders a LEFT JOIN orders b ON a.o_note = b.o_note AND b.o_id < 5 WHERE a.o_id < 8 ORDER BY 1, 2",
            "SELECT a.o_id, b.o_id FROM (SELECT * FROM orders WHERE o_id < 6) a RIGHT JOIN orders b ON a.o_note = b.o_note"
                    + " WHERE b.o_id < 8 OR b.o_id > 1000 ORDER BY 2, 1",
            "SELECT a.o_id, b.o_id FROM (SELECT * FROM orders WHERE o_id < 6) a FULL JOIN (SELECT * FROM orders WHERE o_id > 1000 OR o_id = 2) b"
                    + " ON a.o_day = b.o_day ORDER BY 1, 2",
            "SELECT o_id FROM orders a WHERE NOT EXISTS (SELECT 1 FROM orders b WHERE b.o_day = a.o_day AND b.o_id > 150) ORDER BY 1",
            "SELECT o_id FROM orders a WHERE EXISTS (SELECT 1 FROM orders b WHERE b.o_note = a.o_note AND b.o_id <> a.o_id) ORDER BY 1",
            "SELECT a.o_note, COUNT(*), SUM(b.o_total) FROM orders a JOIN orders b ON a.o_note = b.o_note GROUP BY a.o_note ORDER BY 1",
            "SELECT a.o_id, b.o_id FROM orders a JOIN orders b ON a.o_cust + 100 = b.o_id ORDER BY 1, 2",
            // AVG split into SUM and COUNT on the shards; DISTINCT grouped by another column repartitioned by the group key
            "SELECT AVG(o_total), AVG(o_cust), AVG(o_id), COUNT(o_day) FROM orders",
            "SELECT o_day, AVG(o_total), COUNT(DISTINCT o_cust), MAX(o_note) FROM orders GROUP BY o_day ORDER BY 1",
            // a small side (groups of the distribution column) broadcast to the large one
            "SELECT a.o_id, g.n FROM orders a JOIN (SELECT o_id AS k, COUNT(*) AS n FROM orders GROUP BY o_id) g ON g.n + 9 = a.o_cust"
                    + " ORDER BY 1, 2 LIMIT 5",
            // a sort with a limit: each shard sends its first offset + limit rows
            "SELECT o_id, o_total FROM orders ORDER BY o_total DESC, o_id LIMIT 4 OFFSET 3",
            // a scalar subquery's aggregate merged on every shard for the join there
            "SELECT o_cust, COUNT(*), SUM(o_total) FROM orders WHERE o_total > (SELECT AVG(o_total) FROM orders) GROUP BY o_cust ORDER BY 1",
            // a join computed twice within a shard-local subtree (shared once)
            "SELECT COUNT(*), SUM(x.o_cust) FROM (SELECT o_id, o_cust FROM orders JOIN cust ON o_cust = c_id) x"
                    + " JOIN (SELECT o_id, o_cust FROM orders JOIN cust ON o_cust = c_id) y ON x.o_id = y.o_id");

    @Execution(value = ExecutionMode.SAME_THREAD, reason = "one cluster at a time")
    @ParameterizedTest(name = "transport = {0}")
    @ValueSource(strings = {"flight", "ucx"})
    void threeNodesAnswerAsOneAndANodeCatchesUp(String transport) throws Exception {
        try (LoopbackCluster cluster = LoopbackCluster.start(dir, NODES, LoopbackCluster.smallNode("512m"), "transport = " + transport + "\n");
                Connection reference = DriverManager.getConnection("jdbc:warpdb:mem:cluster_reference")) {
            Path csv = dir.resolve("orders.csv");
            StringBuilder rows = new StringBuilder();
            for (int i = 100; i < 160; i++) {
                rows.append(i).append(',').append(10 * (i % 4)).append(',').append(i % 7).append(".25,n").append(i % 5).append(",2024-01-0")
                        .append(1 + i % 3).append('\n');
            }
            Files.writeString(csv, rows);
            List<String> setup = List.of(
                    "CREATE TABLE orders (o_id BIGINT NOT NULL, o_cust INT, o_total DECIMAL(12,2), o_note VARCHAR(20), o_day DATE)"
                            + " WITH (distribution = 'hash(o_id)')",
                    "CREATE TABLE cust (c_id INT, c_name VARCHAR(20)) WITH (distribution = 'replicated')",
                    "INSERT INTO orders VALUES (1, 10, 5.50, 'a', DATE '2024-01-01'), (2, 10, 7.25, 'b', DATE '2024-01-02'),"
                            + " (3, 20, 1.00, NULL, DATE '2024-01-02'), (4, 30, 100.00, 'd', NULL), (5, 20, 2.50, 'e', DATE '2024-01-02')",
                    "INSERT INTO cust VALUES (0, 'zed'), (10, 'ann'), (20, 'bob'), (30, 'cy'), (40, 'dee')",
                    "COPY orders FROM '" + csv + "' (HEADER false)",
                    "INSERT INTO orders SELECT c_id + 1000, c_id, 0.5, c_name, NULL FROM cust WHERE c_id > 10");
            for (int i = 0; i < setup.size(); i++) {
                try (Connection c = DriverManager.getConnection(cluster.url(i % NODES)); Statement s = c.createStatement();
                        Statement r = reference.createStatement()) {
                    assertEquals(r.executeUpdate(setup.get(i)), s.executeUpdate(setup.get(i)), setup.get(i));
                }
            }
            copyOfAFileTheNodesSeeApart(cluster, reference);
            for (int n = 0; n < NODES; n++) {
                assertSameAnswers(reference, cluster.url(n), queries);
            }
            assertExplainShowsFragments(cluster.url(1), transport);

            // n3 stops: the other two still commit DDL, but a load needs every shard and leaves nothing behind.
            cluster.stop(2);
            try (Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement();
                    Statement r = reference.createStatement()) {
                SQLException refused = assertThrows(SQLException.class,
                        () -> s.executeUpdate("INSERT INTO orders SELECT c_id + 10000, c_id, 1.00, c_name, NULL FROM cust"));
                assertEquals("08006", refused.getSQLState(), refused.getMessage());
                String create = "CREATE TABLE later (k INT, v VARCHAR(5)) WITH (distribution = 'hash(k)')";
                s.executeUpdate(create);
                r.executeUpdate(create);
            }
            cluster.restart(2);
            try (Connection c = DriverManager.getConnection(cluster.url(2)); Statement s = c.createStatement();
                    Statement r = reference.createStatement()) {
                String insert = "INSERT INTO later VALUES (1, 'x'), (2, 'y'), (3, NULL), (4, 'x')";
                assertEquals(r.executeUpdate(insert), s.executeUpdate(insert));
            }
            List<String> withLater = new ArrayList<>(queries);
            withLater.add("SELECT v, COUNT(*), SUM(k) FROM later GROUP BY v ORDER BY v");
            for (int n = 0; n < NODES; n++) {
                assertSameAnswers(reference, cluster.url(n), withLater);
            }
        }
        assertShardsSplitTheRows();
    }

    /**
     * A COPY of a file that each node names alike but n2 sees with another size (a relative name,
     * resolved in each node's folder) and n3 not at all: the coordinating node parses its own file,
     * as before COPY was parsed by every node, and the rows land on their shards.
     */
    private static void copyOfAFileTheNodesSeeApart(LoopbackCluster cluster, Connection reference) throws Exception {
        Files.writeString(cluster.workingDirectory(0).resolve("apart.csv"), "900,10,1.50,n1,2024-01-01\n901,20,2.50,,2024-01-03\n");
        Files.writeString(cluster.workingDirectory(1).resolve("apart.csv"), "not the same file\n");
        try (Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement();
                Statement r = reference.createStatement()) {
            assertEquals(2, s.executeUpdate("COPY orders FROM 'apart.csv' (HEADER false)"));
            r.executeUpdate("INSERT INTO orders VALUES (900, 10, 1.50, 'n1', DATE '2024-01-01'), (901, 20, 2.50, NULL, DATE '2024-01-03')");
        }
    }

    /**
     * EXPLAIN shows a partial aggregate on every node and its exchange; EXPLAIN ANALYZE what the
     * exchange moved, and for rows sent between shards where the slowest sender's time went.
     */
    private static void assertExplainShowsFragments(String url, String transport) throws SQLException {
        String query = "SELECT o_cust, SUM(o_total) FROM orders GROUP BY o_cust";
        try (Connection c = DriverManager.getConnection(url)) {
            String plan = String.join("\n", rows(c, "EXPLAIN " + query).stream().map(r -> (String) r.get(0)).toList());
            assertTrue(plan.contains("Fragment 1 (partial aggregate) on n1, n2, n3:") && plan.contains("Exchange 1: n1, n2, n3 to n2 over")
                    && plan.contains("Coordinator on n2:"), plan);
            String analyzed = String.join("\n", rows(c, "EXPLAIN ANALYZE " + query).stream().map(r -> (String) r.get(0)).toList());
            String wire = transport.equals("ucx") ? ", wire bytes=[1-9]\\d*" : "";
            assertTrue(analyzed.matches("(?s).*Exchange 1: .*\\(rows=\\d+, bytes=[1-9]\\d*" + wire + ", time=[0-9.]+ ms\\).*"), analyzed);
            String join = "SELECT a.o_note, COUNT(*) FROM orders a JOIN orders b ON a.o_note = b.o_note GROUP BY a.o_note";
            String repartitioned = String.join("\n", rows(c, "EXPLAIN ANALYZE " + join).stream().map(r -> (String) r.get(0)).toList());
            assertTrue(repartitioned.contains("Fragment 1 (repartitioned) on n1, n2, n3:") && repartitioned.contains("Fragment 2 (repartitioned)")
                    && repartitioned.matches("(?s).*Exchange 1: n1, n2, n3 to n1, n2, n3 over .*, by murmur3 of \\[o_note\\]"
                            + " \\(rows=70, bytes=[1-9]\\d*" + wire + ", time=[0-9.]+ ms\\) \\[slowest sender n[1-3]: plan=[0-9.]+ ms,"
                            + " take \\(rows [^)]+\\)=[0-9.]+ ms, partition=[0-9.]+ ms, send=[0-9.]+ ms \\(wait for the outboxes=[0-9.]+ ms,"
                            + " puts=[0-9.]+ ms\\), wait for receivers=[0-9.]+ ms \\(their pulls=[0-9.]+ ms\\); its outboxes' opening from"
                            + " [0-9.]+ ms: address=[0-9.]+ ms, channel=[0-9.]+ ms, device answer=[0-9.]+ ms; request and answer=-?[0-9.]+ ms\\].*")
                    && repartitioned.contains("Scan(table=exchange_1"), repartitioned);
            // a join the query computes twice is one shared node in the shards' plans too: they find the fragment in them
            String twice = "SELECT COUNT(*), SUM(x.o_cust) FROM (SELECT o_id, o_cust FROM orders JOIN cust ON o_cust = c_id) x"
                    + " JOIN (SELECT o_id, o_cust FROM orders JOIN cust ON o_cust = c_id) y ON x.o_id = y.o_id";
            String shared = String.join("\n", rows(c, "EXPLAIN ANALYZE " + twice).stream().map(r -> (String) r.get(0)).toList());
            assertTrue(shared.contains("Fragment 1") && shared.matches("(?s).*Exchange 1: .*\\(rows=\\d+, .*"), shared);
            // the joining fragment's times: the coordinator's own, and over UCX every node's
            String joining = transport.equals("ucx") ? "(n[1-3]: [^;\\]]+; ){2}n[1-3]: [^;\\]]+" : "n2: [^;\\]]+";
            assertTrue(repartitioned.matches("(?s).*Exchange 3: .*\\(rows=\\d+, bytes=\\d+" + wire.replace("[1-9]", "\\d") + ", time=[0-9.]+ ms\\)"
                    + " \\[" + joining + "\\]\n.*") && repartitioned.contains("n2: open=") && repartitioned.contains(", wait for inputs="),
                    repartitioned);
        }
    }

    /** Each shard holds a part of the hash-distributed table, together all of it once; each holds all of the replicated one. */
    private void assertShardsSplitTheRows() {
        long total = 0;
        List<Long> counts = new ArrayList<>();
        for (int n = 1; n <= NODES; n++) {
            try (Database shard = Database.open(dir.resolve("n" + n).resolve("db"), StorageOptions.defaults())) {
                long rows = shard.catalog().table("orders").orElseThrow().rowCount();
                assertTrue(rows > 0 && rows < 70, "shard n" + n + " holds " + rows + " of 70 rows");
                total += rows;
                counts.add(rows);
                assertEquals(5, shard.catalog().table("cust").orElseThrow().rowCount());
            }
        }
        assertEquals(70, total, "rows per shard: " + counts);
    }

    private static void assertSameAnswers(Connection reference, String url, List<String> sqls) throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            for (String sql : sqls) {
                assertEquals(rows(reference, sql), rows(c, sql), sql + " at " + url);
            }
        }
    }

    private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
