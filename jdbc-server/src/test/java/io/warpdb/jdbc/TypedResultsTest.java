package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** WarpDB's driver reads columns with getObject(column, type) (JDBC 4.2), DATE as {@link LocalDate}, TIMESTAMP as {@link LocalDateTime}, embedded and remote. */
class TypedResultsTest {
    private static ServedDatabase served;

    @BeforeAll
    static void start() throws SQLException {
        served = ServedDatabase.start("mem:typed-results",
                "CREATE TABLE d (id INTEGER, shipped DATE)",
                "INSERT INTO d VALUES (1, DATE '1999-12-31'), (2, NULL), (3, DATE '0001-01-01')");
    }

    @AfterAll
    static void stop() throws SQLException {
        served.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote"})
    void datesReadAsLocalDates(String driver) throws SQLException {
        try (Connection c = served.connect(driver);
                PreparedStatement p = c.prepareStatement("SELECT id, shipped FROM d WHERE id < ? ORDER BY id")) {
            p.setInt(1, 3);
            try (ResultSet rs = p.executeQuery()) {
                assertSame(p, rs.getStatement());
                assertTrue(rs.next());
                assertEquals(LocalDate.of(1999, 12, 31), rs.getObject(2, LocalDate.class));
                assertEquals(LocalDate.of(1999, 12, 31), rs.getObject("shipped", LocalDate.class));
                assertEquals(Integer.valueOf(1), rs.getObject(1, Integer.class));
                assertEquals(Long.valueOf(1), rs.getObject("id", Long.class));
                assertEquals("1", rs.getObject(1, String.class));
                assertTrue(rs.next());
                assertNull(rs.getObject(2, LocalDate.class));
                assertEquals(Integer.valueOf(2), rs.getObject(1, Integer.class));
                assertFalse(rs.next());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote"})
    void timestampsReadAsLocalDateTimes(String driver) throws SQLException {
        try (Connection c = served.connect(driver); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT TIMESTAMP '2024-03-10 02:30:00.123', CAST(NULL AS TIMESTAMP)")) {
            assertTrue(rs.next());
            assertEquals(LocalDateTime.of(2024, 3, 10, 2, 30, 0, 123_000_000), rs.getObject(1, LocalDateTime.class));
            assertNull(rs.getObject(2, LocalDateTime.class));
        }
    }
}
