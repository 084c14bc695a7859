package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract through the embedded driver, plus what only the embedded driver does. */
class EmbeddedJdbcTest extends JdbcContractTest {
    private String url;

    @Override
    void openDatabase() {
        url = "jdbc:warpdb:mem:test-" + UUID.randomUUID();
    }

    @Override
    Connection newConnection(Properties properties) throws SQLException {
        return DriverManager.getConnection(url, properties);
    }

    @Override
    void closeDatabase() {
        // The database closed with its last connection, and would have thrown on leaked memory.
    }

    @Test
    void connectionsNamingADatabaseShareItUntilTheLastCloses() throws SQLException {
        try (Connection first = DriverManager.getConnection(url); Statement s = first.createStatement()) {
            s.executeUpdate("CREATE TABLE shared (x INTEGER)");
            s.executeUpdate("INSERT INTO shared VALUES (42)");
            try (Connection second = DriverManager.getConnection(url)) {
                assertEquals(42L, scalar(second, "SELECT x FROM shared"));
            }
            assertEquals(42L, scalar(first, "SELECT x FROM shared"), "the database outlives one of its connections");
        }
        try (Connection later = DriverManager.getConnection(url)) {
            SQLException gone = assertThrows(SQLException.class, () -> scalar(later, "SELECT x FROM shared"));
            assertEquals("42P01", gone.getSQLState(), "the database ended with its last connection");
        }
    }

    @Test
    void urlOptionsSetConnectionProperties() throws SQLException {
        try (Connection c = DriverManager.getConnection(url + ";executor=cpu")) {
            assertEquals(2L, scalar(c, "SELECT 1 + 1"));
        }
        assertEquals("22023", assertThrows(SQLException.class, () -> DriverManager.getConnection(url + ";executor=abacus")).getSQLState());
    }

    @Test
    void closingARunningStatementCancelsIt() throws Exception {
        // In process, Statement.close does not wait for the query (the remote client's does).
        Statement running = connect().createStatement();
        SQLException e = interruptLongQuery(running, () -> {
            try {
                running.close();
            } catch (SQLException closeFailure) {
                throw new AssertionError(closeFailure);
            }
        });
        assertEquals("57014", e == null ? null : e.getSQLState());
    }

    @Test
    void durableDatabasesKeepTheirDataAcrossConnections(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws SQLException {
        String url = "jdbc:warpdb:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kept (id INTEGER, name VARCHAR(10))");
            s.execute("INSERT INTO kept VALUES (1, 'one'), (2, NULL)");
        }
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT id, name FROM kept ORDER BY id")) {
            assertTrue(r.next());
            assertEquals(1, r.getInt(1));
            assertEquals("one", r.getString(2));
            assertTrue(r.next());
            assertEquals(null, r.getString(2));
        }
        assertEquals("08000", assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:warpdb:mem:")).getSQLState());
    }

    @Test
    void driverReportsWarpDb() throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals("WarpDB", c.getMetaData().getDatabaseProductName());
            assertTrue(c.getMetaData().getDriverVersion().matches("\\d+\\.\\d+.*"), c.getMetaData().getDriverVersion());
        }
    }
}
