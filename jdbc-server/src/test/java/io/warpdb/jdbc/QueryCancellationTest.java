package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code Statement.cancel()}, {@code setQueryTimeout}, {@code SET query_timeout} and the server's
 * {@code --query-timeout-seconds}, embedded and over the remote driver: the statement fails with
 * SQLSTATE 57014, the connection serves the next statement, and the data is unchanged.
 */
class QueryCancellationTest {
    /** Rows of the table: the query below joins 3000 x 3000 x 50 = 450 million triples, a minute of work or more. */
    private static final int ROWS = 3000;
    private static final String SLOW = "SELECT COUNT(*) FROM t a, t b, (SELECT * FROM t WHERE k < 50) c"
            + " WHERE a.v + b.v + c.v > -1 AND a.k <> b.k";

    private static String database;
    /** Holds the in-memory database open between the tests' connections. */
    private static Connection keeper;
    private static WarpServer server;
    private static WarpServer timingOutServer;

    @BeforeAll
    static void start() throws SQLException {
        database = Databases.MEMORY + "cancel-" + UUID.randomUUID();
        keeper = DriverManager.getConnection("jdbc:warpdb:" + database);
        try (Statement s = keeper.createStatement()) {
            s.execute("CREATE TABLE t (k INTEGER, v BIGINT)");
            StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
            for (int i = 0; i < ROWS; i++) {
                insert.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i * 7L).append(')');
            }
            assertEquals(ROWS, s.executeUpdate(insert.toString()));
        }
        server = WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(database));
        timingOutServer = WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(database)
                .withQueryLimits(new ServerConfig.QueryLimits(300, null)));
    }

    @AfterAll
    static void stop() throws SQLException {
        server.close();
        timingOutServer.close();
        keeper.close();
    }

    private static Connection connect(String how) throws SQLException {
        return DriverManager.getConnection(how.equals("embedded") ? "jdbc:warpdb:" + database : server.warpdbUrl());
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void cancelFromAnotherThreadStopsTheStatement(String how) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            Future<?> running = pool.submit(() -> s.executeQuery(SLOW));
            Thread.sleep(400);
            long start = System.nanoTime();
            s.cancel();
            Exception e = assertThrows(Exception.class, () -> running.get(30, TimeUnit.SECONDS));
            SQLException cause = assertInstanceOf(SQLException.class, e.getCause());
            assertEquals("57014", cause.getSQLState(), cause.getMessage());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "cancelled promptly");
            assertServesAgain(c);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void queryTimeoutOfTheStatement(String how) throws SQLException {
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            assertEquals(1, s.getQueryTimeout());
            SQLTimeoutException e = assertThrows(SQLTimeoutException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            s.setQueryTimeout(0);
            assertServesAgain(c);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "remote"})
    void queryTimeoutOfTheSession(String how) throws SQLException {
        try (Connection c = connect(how); Statement s = c.createStatement()) {
            s.execute("SET query_timeout = '200ms'");
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            assertTrue(e.getMessage().contains("timeout of 200 ms"), e.getMessage());
            s.execute("SET query_timeout = 0");
            assertServesAgain(c);
            SQLException bad = assertThrows(SQLException.class, () -> s.execute("SET query_timeout = 'soon'"));
            assertEquals("22023", bad.getSQLState());
        }
    }

    @Test
    void theServersQueryTimeout() throws SQLException {
        try (Connection c = DriverManager.getConnection(timingOutServer.warpdbUrl()); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(SLOW));
            assertEquals("57014", e.getSQLState());
            assertServesAgain(c);
        }
    }

    /** The connection runs the next statement, and the table is as it was. */
    private static void assertServesAgain(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
            assertTrue(r.next());
            assertEquals(ROWS, r.getLong(1));
            assertEquals(7L * ROWS * (ROWS - 1) / 2, r.getLong(2));
        }
    }
}
