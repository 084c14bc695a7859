package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that stops answering (SIGSTOP, a hung machine) fails the queries that need it within the
 * node timeout, with SQLSTATE 08006 naming it; the other nodes go on serving what does not need
 * it; once SIGKILLed, queries that need it fail at once; restarted, it catches up and answers.
 */
class ClusterFailureTest {
    /** Long enough for a live node's first rows on a busy 2-core machine (planning included), short enough for a test. */
    private static final int TIMEOUT_SECONDS = 15;

    @TempDir
    Path dir;

    @Test
    void aNodeThatDoesNotAnswerFailsTheQueriesThatNeedItWithinTheTimeout() throws Exception {
        String timeout = "node.timeout.seconds = " + TIMEOUT_SECONDS + "\n";
        try (LoopbackCluster cluster = LoopbackCluster.start(dir, 3, List.of("-Xmx512m"), timeout)) {
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

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
