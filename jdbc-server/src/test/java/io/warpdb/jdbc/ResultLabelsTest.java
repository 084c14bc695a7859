package io.warpdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unnamed result columns are labelled as PostgreSQL labels them (count, sum, a column's name,
 * ?column? for operators), not with Calcite's EXPR$n; duplicates stay, embedded and remote.
 */
class ResultLabelsTest {
    private static ServedDatabase served;

    @BeforeAll
    static void start() throws SQLException {
        served = ServedDatabase.start("mem:result-labels",
                "CREATE TABLE nation (n_name VARCHAR(25), n_key INTEGER, d DATE)",
                "INSERT INTO nation VALUES ('FRANCE', 6, DATE '2024-01-01'), ('PERU', 17, NULL)");
    }

    @AfterAll
    static void stop() throws SQLException {
        served.close();
    }

    private static List<String> labels(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.add(md.getColumnLabel(i));
            }
            return labels;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"embedded", "warpdb-remote"})
    void labelsFollowPostgreSql(String driver) throws SQLException {
        try (Connection c = served.connect(driver)) {
            assertEquals(List.of("n_name", "count", "count", "sum", "avg", "min", "max", "total"),
                    labels(c, "SELECT n_name, COUNT(*), COUNT(n_key), SUM(n_key), AVG(n_key), MIN(n_key), MAX(n_key),"
                            + " SUM(n_key) AS total FROM nation GROUP BY n_name ORDER BY n_name"));
            assertEquals(List.of("sum", "sum", "n_key", "n_key"),
                    labels(c, "SELECT SUM(n_key), SUM(n_key + 1), n_key, n_key FROM nation GROUP BY n_key"));
            assertEquals(List.of("upper", "concat", "n_key", "case", "?column?", "?column?", "coalesce", "extract"),
                    labels(c, "SELECT UPPER(n_name), CONCAT(n_name, 'x'), CAST(n_key AS BIGINT),"
                            + " CASE WHEN n_key > 1 THEN 1 END, n_key + 1, 42, COALESCE(n_key, 0), EXTRACT(YEAR FROM d) FROM nation"));
            assertEquals(List.of("n_name", "n_key", "d"), labels(c, "SELECT * FROM nation"));
            assertEquals(List.of("k", "count"), labels(c, "SELECT n_key AS k, COUNT(*) FROM nation GROUP BY n_key"
                    + " UNION ALL SELECT 1, 2 FROM nation"));
            assertEquals(List.of("column1", "column2"), labels(c, "VALUES (1, 'a')"));
            assertEquals(List.of("EXPR$0"), labels(c, "SELECT \"EXPR$0\" FROM (SELECT 1 AS \"EXPR$0\") AS t"));
        }
    }
}
