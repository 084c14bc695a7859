package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Throwable that escapes planning or execution (here an AssertionError, injected by
 * {@link FaultyExecutorProvider}) reaches the client as an SQLException with SQLSTATE XX000 and
 * its message, on the embedded driver, WarpDB's remote driver and the stock Avatica driver
 * alike; the connection serves the next statement and the data is unchanged.
 */
class InternalErrorTest {
    private static final String DATABASE = "mem:internal-errors";
    private static Connection keeper;
    private static WarpServer server;

    @BeforeAll
    static void start() throws SQLException {
        System.setProperty(FaultyExecutorProvider.ENABLED, "true");
        keeper = DriverManager.getConnection("jdbc:warpdb:" + DATABASE);
        try (Statement s = keeper.createStatement()) {
            for (String table : new String[] {"kept", FaultyExecutorProvider.FAILS_IN_PLANNING, FaultyExecutorProvider.FAILS_IN_EXECUTION}) {
                s.execute("CREATE TABLE " + table + " (k INTEGER)");
                s.execute("INSERT INTO " + table + " VALUES (1), (2), (3)");
            }
        }
        server = WarpServer.start(ServerConfig.defaults().withPort(0).withDatabase(DATABASE));
    }

    @AfterAll
    static void stop() throws SQLException {
        server.close();
        keeper.close();
        System.clearProperty(FaultyExecutorProvider.ENABLED);
    }

    private static Connection connect(String driver) throws SQLException {
        return Drivers.connect(driver, DATABASE, server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote", "avatica-remote"})
    void anErrorInPlanningIsAnInternalError(String driver) throws SQLException {
        try (Connection c = connect(driver); Statement s = c.createStatement()) {
            s.execute("SET executor = 'faulty'");
            assertInternalError(s, "SELECT k + 1 FROM " + FaultyExecutorProvider.FAILS_IN_PLANNING, "injected failure while planning");
            assertStillServes(s);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote", "avatica-remote"})
    void anErrorInExecutionIsAnInternalError(String driver) throws SQLException {
        try (Connection c = connect(driver); Statement s = c.createStatement()) {
            s.execute("SET executor = 'faulty'");
            assertInternalError(s, "SELECT k FROM " + FaultyExecutorProvider.FAILS_IN_EXECUTION + " WHERE k > 1",
                    "injected failure while executing");
            assertStillServes(s);
        }
    }

    /**
     * Deep nesting overflows the parser's recursion, which Calcite's parser reports as a syntax
     * error: the statement fails with 42601, the stack unwinds and the connection goes on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote", "avatica-remote"})
    void aStackOverflowInParsingIsASyntaxError(String driver) throws SQLException {
        try (Connection c = connect(driver); Statement s = c.createStatement()) {
            String nested = "SELECT " + "(".repeat(50_000) + "1" + ")".repeat(50_000);
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery(nested));
            assertEquals("42601", e.getSQLState());
            assertStillServes(s);
        }
    }

    private static void assertInternalError(Statement s, String sql, String message) {
        SQLException e = assertThrows(SQLException.class, () -> {
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        });
        assertEquals("XX000", e.getSQLState(), e.toString());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    private static void assertStillServes(Statement s) throws SQLException {
        s.execute("SET executor = 'cpu'");
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(k) FROM kept")) {
            assertTrue(rs.next());
            assertEquals(3, rs.getLong(1));
            assertEquals(6, rs.getLong(2));
        }
    }
}
