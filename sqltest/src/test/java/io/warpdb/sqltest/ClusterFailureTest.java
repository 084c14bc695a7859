package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A node that stops answering (SIGSTOP, a hung machine) fails the queries that need it within the
 * node timeout, with SQLSTATE 08006 naming it; the other nodes go on serving what does not need
 * it; once SIGKILLed, queries that need it fail at once; restarted, it catches up and answers.
 * A node SIGKILLed while a repartitioned join runs fails that query the same way; a node killed
 * during a load (the coordinator or a shard) leaves all of its rows or none on every node. Over
 * Arrow Flight in the test command; {@code -Dcluster.failure.transports=flight,ucx} runs each
 * case over UCX too (rows between nodes, the killed join's included, over UCX).
 */
@Execution(value = ExecutionMode.CONCURRENT, reason = "waits on node processes more than it computes: beside the other cluster tests")
class ClusterFailureTest {
    /** Long enough for a live node's first rows on a busy 2-core machine (planning included), short enough for a test. */
    private static final int TIMEOUT_SECONDS = 15;
    /** Rows of the killed join's and loads' table: seconds of work on a busy 2-core machine. */
    private static final int ROWS = 200_000;

    @TempDir
    Path dir;

    static Stream<String> transports() {
        return Arrays.stream(System.getProperty("cluster.failure.transports", "flight").split(",")).map(String::strip)
                .filter(t -> !t.isEmpty());
    }

    private static String transport(String name) {
        return "transport = " + name + "\n";
    }

    @Execution(value = ExecutionMode.SAME_THREAD, reason = "one cluster at a time")
    @ParameterizedTest(name = "transport = {0}")
    @MethodSource("transports")
    void aNodeThatDoesNotAnswerFailsTheQueriesThatNeedItWithinTheTimeout(String transport) throws Exception {
        String timeout = "node.timeout.seconds = " + TIMEOUT_SECONDS + "\n" + transport(transport);
        try (LoopbackCluster cluster = LoopbackCluster.start(dir, 3, LoopbackCluster.smallNode("512m"), timeout)) {
            try (Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (k INT, v INT) WITH (distribution = 'hash(k)')");
                s.executeUpdate("CREATE TABLE r (k INT) WITH (distribution = 'replicated')");
                s.executeUpdate("INSERT INTO t SELECT k, k * 2 FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS v (k)");
                s.executeUpdate("INSERT INTO r VALUES (1), (2)");
            }
            cluster.pause(2);
            try (Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement()) {
                long start = System.nanoTime();
                SQLException hung = assertThrows(SQLException.class, () -> count(s, "SELECT COUNT(*), SUM(v) FROM t"));
                double seconds = (System.nanoTime() - start) / 1e9;
                assertEquals("08006", hung.getSQLState(), hung.getMessage());
                assertTrue(hung.getMessage().contains("node n3")
                        && hung.getMessage().contains("did not answer within " + TIMEOUT_SECONDS + " s"), hung.getMessage());
                assertTrue(seconds < TIMEOUT_SECONDS + 30, "failed after " + seconds + " s");
                assertEquals(2, count(s, "SELECT COUNT(*) FROM r"), "a replicated table needs no other node");
            }
            cluster.kill(2);
            try (Connection c = DriverManager.getConnection(cluster.url(1)); Statement s = c.createStatement()) {
                SQLException gone = assertThrows(SQLException.class, () -> count(s, "SELECT COUNT(*) FROM t WHERE v > 4"));
                assertEquals("08006", gone.getSQLState(), gone.getMessage());
                assertTrue(gone.getMessage().contains("node n3"), gone.getMessage());
                assertEquals(2, count(s, "SELECT COUNT(*) FROM r"));
            }
            cluster.restart(2);
            try (Connection c = DriverManager.getConnection(cluster.url(2)); Statement s = c.createStatement()) {
                assertEquals(9, count(s, "SELECT COUNT(*) FROM t"));
            }
        }
    }

    @Execution(value = ExecutionMode.SAME_THREAD, reason = "one cluster at a time")
    @ParameterizedTest(name = "transport = {0}")
    @MethodSource("transports")
    void aNodeKilledWhileAQueryRunsFailsItNamingTheNodeAndRejoins(String transport) throws Exception {
        Path csv = rows(dir.resolve("t.csv"), ROWS);
        // every v value on 100 rows: the repartitioned self-join counts ROWS * 100 pairs, long enough to be killed in
        String join = "SELECT COUNT(*) FROM t a JOIN t b ON a.v = b.v";
        // the default timeout (60 s): a killed node's broken streams fail the query at once, not a timeout
        try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), 3, LoopbackCluster.smallNode("512m"), transport(transport));
                Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (k INT, v INT) WITH (distribution = 'hash(k)')");
            s.executeUpdate("CREATE TABLE r (k INT) WITH (distribution = 'replicated')");
            s.executeUpdate("COPY t FROM '" + csv + "' (HEADER false)");
            s.executeUpdate("INSERT INTO r VALUES (1), (2)");
            assertEquals(ROWS * 100L, count(s, join)); // once to warm up
            long start = System.nanoTime();
            assertEquals(ROWS * 100L, count(s, join));
            long millis = (System.nanoTime() - start) / 1_000_000;

            ExecutorService client = Executors.newSingleThreadExecutor();
            try {
                Future<Long> running = client.submit(() -> count(s, join));
                // kill while it runs: a third of its time in, or sooner if it was faster this time
                for (long wait = millis / 3; ; wait /= 2) {
                    Thread.sleep(wait);
                    if (!running.isDone()) {
                        break;
                    }
                    assertEquals(ROWS * 100L, running.get());
                    assertTrue(wait > 10, "the join always ended before the kill: it took " + millis + " ms");
                    running = client.submit(() -> count(s, join));
                }
                cluster.kill(2);
                long killed = System.nanoTime();
                Future<Long> query = running;
                ExecutionException failed = assertThrows(ExecutionException.class, () -> query.get(TIMEOUT_SECONDS + 30, TimeUnit.SECONDS));
                double seconds = (System.nanoTime() - killed) / 1e9;
                SQLException error = (SQLException) failed.getCause();
                assertEquals("08006", error.getSQLState(), error.getMessage());
                assertTrue(error.getMessage().contains("node n3"), error.getMessage());
                assertTrue(seconds < TIMEOUT_SECONDS, "failed " + seconds + " s after the kill");
            } finally {
                client.shutdownNow();
            }
            try (Connection other = DriverManager.getConnection(cluster.url(1)); Statement o = other.createStatement()) {
                assertEquals(2, count(o, "SELECT COUNT(*) FROM r"), "a replicated table needs no other node");
            }
            cluster.restart(2);
            assertEquals(ROWS * 100L, count(s, join));
        }
    }

    @Execution(value = ExecutionMode.SAME_THREAD, reason = "one cluster at a time")
    @ParameterizedTest(name = "transport = {0}")
    @MethodSource("transports")
    void aLoadWhoseCoordinatorOrShardIsKilledLeavesAllRowsOrNoneOnEveryNode(String transport) throws Exception {
        Path csv = rows(dir.resolve("load.csv"), ROWS);
        try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), 3, LoopbackCluster.smallNode("512m"), transport(transport))) {
            try (Connection c = DriverManager.getConnection(cluster.url(0)); Statement s = c.createStatement()) {
                for (String table : List.of("timed", "by_coordinator", "by_shard")) {
                    s.executeUpdate("CREATE TABLE " + table + " (k INT, v INT) WITH (distribution = 'hash(k)')");
                }
            }
            long start = System.nanoTime();
            load(cluster, 0, "timed", csv).get();
            long millis = (System.nanoTime() - start) / 1_000_000;
            // the coordinating node n1 dies mid-load; restarted, it catches up; then a shard (n3) of a load through n2 dies
            Future<Integer> byCoordinator = load(cluster, 0, "by_coordinator", csv);
            Thread.sleep(millis / 2);
            cluster.kill(0);
            finish(byCoordinator);
            cluster.restart(0);
            Future<Integer> byShard = load(cluster, 1, "by_shard", csv);
            Thread.sleep(millis / 2);
            cluster.kill(2);
            SQLException failed = finish(byShard);
            assertTrue(failed == null || "08006".equals(failed.getSQLState()), failed == null ? "" : failed.getMessage());
            cluster.restart(2);
            for (String table : List.of("by_coordinator", "by_shard")) {
                List<Long> counts = new java.util.ArrayList<>();
                for (int n = 0; n < 3; n++) {
                    try (Connection c = DriverManager.getConnection(cluster.url(n)); Statement s = c.createStatement()) {
                        counts.add(count(s, "SELECT COUNT(*) FROM " + table));
                    }
                }
                assertTrue(counts.stream().distinct().count() == 1 && (counts.get(0) == 0 || counts.get(0) == ROWS),
                        table + " through n1, n2, n3: " + counts);
            }
            // Nothing staged is left behind: the restarted coordinator abandoned its undecided load, the restarted shard
            // replayed the fate the log gave the other load (its COMMIT or its ABORT).
            for (int n = 0; n < 3; n++) {
                cluster.stop(n);
            }
            for (int n = 0; n < 3; n++) {
                try (Database shard = Database.open(cluster.shardDirectory(n), StorageOptions.defaults())) {
                    assertEquals(java.util.Set.of(), shard.catalog().stagedLoads(), "loads staged on n" + (n + 1));
                }
            }
        }
    }

    /** Waits for a load; returns its error, or null when it committed before the kill. */
    private static SQLException finish(Future<Integer> load) throws InterruptedException {
        try {
            assertEquals(ROWS, load.get(60, TimeUnit.SECONDS));
            return null;
        } catch (ExecutionException e) {
            return (SQLException) e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("a load hung after a node was killed", e);
        }
    }

    /** Loads {@code csv} into {@code table} through node {@code n} on a thread of its own. */
    private static Future<Integer> load(LoopbackCluster cluster, int n, String table, Path csv) {
        ExecutorService loader = Executors.newSingleThreadExecutor();
        try {
            return loader.submit(() -> {
                try (Connection c = DriverManager.getConnection(cluster.url(n)); Statement s = c.createStatement()) {
                    return s.executeUpdate("COPY " + table + " FROM '" + csv + "' (HEADER false)");
                }
            });
        } finally {
            loader.shutdown();
        }
    }

    /** A CSV file of {@code rows} rows {@code k,v}: k from 0, v = k mod (rows / 100). */
    private static Path rows(Path file, int rows) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < rows; k++) {
            text.append(k).append(',').append(k % (rows / 100)).append('\n');
        }
        return Files.writeString(file, text);
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
