package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 16's three repros through every driver: a join of grouped sub-queries over one table,
 * a comparison with a NULL constant that once failed while planning, and a CASE that guards a
 * division (TPC-DS q34/q73). The sqltest corpus checks the same on every executor, embedded.
 */
class DefectReprosTest {
    private static ServedDatabase served;

    @BeforeAll
    static void start() throws SQLException {
        served = ServedDatabase.start("mem:defect-repros",
                "CREATE TABLE d (y INTEGER, m INTEGER)",
                "INSERT INTO d VALUES (2001, 1), (2001, 2), (2002, 1), (2002, 2)",
                "CREATE TABLE t (col0 INTEGER, col1 INTEGER, col2 INTEGER)",
                "CREATE TABLE hd (dep INTEGER, vehicles INTEGER)",
                "INSERT INTO hd VALUES (5, 2), (3, 0), (1, 4)");
    }

    @AfterAll
    static void stop() throws SQLException {
        served.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote", "avatica-remote"})
    void reprosAnswerRight(String driver) throws SQLException {
        try (Connection c = served.connect(driver); Statement s = c.createStatement()) {
            assertEquals(List.of("2002 2001 1", "2002 2001 2"), rows(s, """
                    SELECT a.y AS y1, b.y AS y2, a.m
                    FROM (SELECT y, m FROM d WHERE y = 2002 GROUP BY y, m) a,
                         (SELECT y, m FROM d WHERE y = 2001 GROUP BY y, m) b
                    WHERE a.m = b.m ORDER BY a.m"""));
            assertEquals(List.of(), rows(s, "SELECT DISTINCT col0 FROM t WHERE - CAST(NULL AS REAL) = + 56 / - col0"));
            assertEquals(List.of("5"), rows(s,
                    "SELECT dep FROM hd WHERE CASE WHEN vehicles > 0 THEN dep / vehicles ELSE NULL END > 1.2 ORDER BY dep"));
        }
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(rs.getString(i));
                }
                rows.add(String.join(" ", values));
            }
            assertFalse(rs.next());
        }
        return rows;
    }
}
