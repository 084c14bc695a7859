package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a server on a durable database in the middle of work: after a restart on the same
 * directory, every statement the server acknowledged is there, the one it was running is there
 * whole or not at all, and the server serves again.
 */
class ServerKillTest {
    /** 137: killed by SIGKILL (128 + 9). */
    private static final int KILLED = 137;

    @TempDir
    Path dir;

    @Test
    void killedDuringInsertsKeepsEveryAcknowledgedRow() throws Exception {
        AtomicLong acknowledged = new AtomicLong();
        try (CliProcess server = startServer()) {
            String url = url(server);
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (x BIGINT NOT NULL)");
            }
            ExecutorService writer = Executors.newSingleThreadExecutor();
            try {
                Future<?> inserting = writer.submit(() -> {
                    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                        for (long i = 1; ; i++) {
                            s.executeUpdate("INSERT INTO t VALUES (" + i + ")");
                            acknowledged.set(i);
                        }
                    } catch (SQLException | RuntimeException e) {
                        return null; // the server went away
                    }
                });
                while (acknowledged.get() < 50) {
                    Thread.sleep(20);
                }
                server.kill();
                assertEquals(KILLED, server.waitFor());
                inserting.get();
            } finally {
                writer.shutdownNow();
            }
        }
        try (CliProcess server = startServer()) {
            try (Connection c = DriverManager.getConnection(url(server)); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(x), MAX(x) FROM t")) {
                assertTrue(rs.next());
                long rows = rs.getLong(1);
                long acked = acknowledged.get();
                assertTrue(rows == acked || rows == acked + 1, rows + " rows after " + acked + " acknowledged inserts");
                assertEquals(rows * (rows + 1) / 2, rs.getLong(2), "rows 1.." + rows + ", each once");
                assertEquals(rows, rs.getLong(3));
            }
            server.terminate();
            server.waitFor();
        }
    }

    @Test
    void killedDuringABulkInsertAndQueriesKeepsTheLastCommittedState() throws Exception {
        long before;
        try (CliProcess server = startServer()) {
            String url = url(server);
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE big (k BIGINT NOT NULL, v VARCHAR(20))");
                s.executeUpdate("INSERT INTO big VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
                for (int doubling = 0; doubling < 16; doubling++) {
                    s.executeUpdate("INSERT INTO big SELECT k + (SELECT MAX(k) FROM big), v FROM big");
                }
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM big")) {
                    rs.next();
                    before = rs.getLong(1);
                }
            }
            ExecutorService clients = Executors.newFixedThreadPool(3);
            try {
                // One bulk insert (doubling the table) and two clients querying while the server is killed.
                Future<?> bulk = clients.submit(() -> runOnce(url, "INSERT INTO big SELECT k + 1000000000, v FROM big"));
                Future<?> q1 = clients.submit(() -> runUntilKilled(url, "SELECT v, COUNT(*), SUM(k) FROM big GROUP BY v"));
                Future<?> q2 = clients.submit(() -> runUntilKilled(url, "SELECT * FROM big ORDER BY k DESC LIMIT 10"));
                Thread.sleep(300);
                server.kill();
                assertEquals(KILLED, server.waitFor());
                bulk.get();
                q1.get();
                q2.get();
            } finally {
                clients.shutdownNow();
            }
        }
        try (CliProcess server = startServer()) {
            checkAfterRestart(url(server), before);
            server.terminate();
            server.waitFor();
        }
    }

    private static void checkAfterRestart(String url, long before) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            long rows;
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT k) FROM big")) {
                rs.next();
                rows = rs.getLong(1);
                assertEquals(rows, rs.getLong(2), "no row twice");
            }
            assertTrue(rows == before || rows == 2 * before, "the bulk insert is there whole or not at all: " + rows + " rows, "
                    + before + " before it");
            s.executeUpdate("INSERT INTO big VALUES (-1, 'after')");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM big")) {
                rs.next();
                assertEquals(rows + 1, rs.getLong(1), "the restarted server takes writes");
            }
        }
    }

    private CliProcess startServer() throws Exception {
        return new CliProcess("server", "--port", "0", "--data", dir.resolve("db").toString());
    }

    /** The WarpDB URL from the server's banner. */
    private static String url(CliProcess server) throws Exception {
        String banner = server.readLine();
        assertTrue(banner != null && banner.contains(" at jdbc:warpdb:remote:"), banner);
        return banner.substring(banner.indexOf("jdbc:"), banner.indexOf(" (Avatica"));
    }

    /** Runs the statement once, unless the server goes away first. */
    private static Void runOnce(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException | RuntimeException e) {
            // killed in the middle
        }
        return null;
    }

    /** Runs the statement over and over until the server goes away. */
    private static Void runUntilKilled(String url, String sql) {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            while (true) {
                s.execute(sql);
            }
        } catch (SQLException | RuntimeException e) {
            return null;
        }
    }
}
