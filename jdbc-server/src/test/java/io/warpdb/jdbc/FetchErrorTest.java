package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A data error raised while a later frame of rows is fetched reaches the caller of
 * {@code ResultSet.next()} as an SQLException with its SQLSTATE, as one raised while executing
 * does (found by the fuzzer: the embedded driver threw Avatica's unchecked exception there).
 */
class FetchErrorTest {
    private static ServedDatabase served;

    @BeforeAll
    static void start() throws SQLException {
        // 2,000 rows that cast to INTEGER, then one that does not: the first frames go out before it is read.
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            rows.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(i).append(")");
        }
        served = ServedDatabase.start("mem:fetch-errors", "CREATE TABLE n (k INTEGER, v BIGINT)", "INSERT INTO n VALUES " + rows,
                "INSERT INTO n VALUES (2000, -706958875257739429)");
    }

    @AfterAll
    static void stop() throws SQLException {
        served.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote"})
    void anOverflowInALaterFrameIsAnSqlException(String driver) throws SQLException {
        try (Connection c = served.connect(driver); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (ResultSet rs = s.executeQuery("SELECT CAST(v AS INTEGER) FROM n")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
            });
            assertEquals("22003", e.getSQLState(), e.toString());
            assertTrue(e.getMessage().contains("out of range"), e.getMessage());
            // The session goes on.
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM n")) {
                assertTrue(rs.next());
                assertEquals(2001, rs.getLong(1));
            }
        }
    }
}
