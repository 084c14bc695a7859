package io.warpdb.sql.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.WarpException;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The plans of GROUPING SETS, ROLLUP and CUBE ({@link GroupingSetsPlan}) and their answers on the CPU executor. */
class GroupingSetsPlanTest {
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("grouping_sets");
        session = db.newSession();
        execute("create table t (a varchar(5), b integer, c integer, x decimal(10,2))");
        execute("insert into t values ('p', 1, 1, 1.50), ('p', 2, NULL, 2.25), (NULL, 1, 3, NULL), ('q', NULL, 4, 0.10)");
        execute("create table empty_t (a varchar(5), b integer, c integer, x decimal(10,2))");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    private void execute(String sql) {
        session.execute(sql, List.of()).close();
    }

    private List<String> plan(String sql) {
        List<String> lines = new ArrayList<>();
        try (StatementResult r = session.execute("EXPLAIN " + sql, List.of())) {
            r.rows().forEach(row -> lines.add(((String) row.get(0)).strip()));
        }
        return lines;
    }

    /** The rows of {@code sql} ordered by it, each as its values joined by "|". */
    private List<String> rows(String sql) {
        List<String> out = new ArrayList<>();
        try (StatementResult r = session.execute(sql, List.of())) {
            for (List<Object> row : r.rows()) {
                out.add(String.join("|", row.stream().map(v -> v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v)).toList()));
            }
        }
        return out;
    }

    private static long count(List<String> plan, String prefix) {
        return plan.stream().filter(line -> line.startsWith(prefix)).count();
    }

    @Test
    void rollupAggregatesTheInputOnceAndEachSetFromTheFinestGroups() {
        List<String> plan = plan("select a, b, sum(x), count(*), grouping(a, b) from t group by rollup (a, b)");
        String text = String.join("\n", plan);
        assertEquals(1, count(plan, "Scan("), text);
        assertEquals(2, count(plan, "Aggregate("), text);
        // The finest groups (a, b) ...
        assertTrue(text.contains("Aggregate(groupBy=[$0, $1], aggregates=[SUM([$2]), COUNT_STAR([])])"), text);
        // ... joined with one row per set; RIGHT, so that the grand total has its row of an empty input.
        assertTrue(text.contains("Join(kind=RIGHT)") && text.contains("Values(rows=3)"), text);
        // Each set's rolled-up keys NULL, then the sets aggregated together: $set and the two keys.
        assertTrue(text.contains("Aggregate(groupBy=[$0, $1, $2], aggregates=[SUM([$3]), SUM([$4])])"), text);
    }

    @Test
    void withoutTheGrandTotalTheJoinIsInnerAndUnfiltered() {
        String text = String.join("\n", plan("select a, b, count(c) from t group by grouping sets ((a), (b))"));
        assertTrue(text.contains("Join(kind=INNER)"), text);
        assertTrue(!text.contains("Filter("), text);
        assertTrue(text.contains("a=CASE(IN($3, 1), NULL, $0), b=CASE(IN($3, 0), NULL, $1)"), text);
    }

    @Test
    void averageAndSumOfOneColumnShareTheirPartialSum() {
        String text = String.join("\n", plan("select a, sum(x), avg(x) from t group by rollup (a)"));
        assertTrue(text.contains("Aggregate(groupBy=[$0], aggregates=[SUM([$1]), COUNT([$1]), COUNT_STAR([])])"), text);
        // AVG is the unscaled sum over count * 10^scale, as doubles.
        assertTrue(text.contains("EXPR$1=$2, EXPR$2=DIVIDE(CAST(MULTIPLY($2, 100) AS DOUBLE), CAST(MULTIPLY($3, 100) AS DOUBLE))"), text);
    }

    @Test
    void distinctAggregatesExpandTheInputRowsThemselves() {
        List<String> plan = plan("select a, b, count(distinct c), count(*) from t group by cube (a, b)");
        String text = String.join("\n", plan);
        assertEquals(1, count(plan, "Scan("), text);
        assertEquals(1, count(plan, "Aggregate("), text);
        // COUNT(*) counts the marker, which the grand total's row of an empty input lacks.
        assertTrue(text.contains("aggregates=[COUNT(DISTINCT [$3]), COUNT([$4])]"), text);
        assertTrue(text.contains("$row=true") && text.contains("Values(rows=4)"), text);
    }

    @Test
    void rollupAnswersTellRolledUpNullsFromNullKeys() {
        assertEquals(List.of(
                        "p|1|1.50|1|0", "p|2|2.25|1|0", "p|null|3.75|2|1",
                        "q|null|0.10|1|0", "q|null|0.10|1|1",
                        "null|1|null|1|0", "null|null|null|1|1",
                        "null|null|3.85|4|3"),
                rows("select a, b, sum(x), count(*), grouping(a, b) from t group by rollup (a, b)"
                        + " order by grouping(a, b) = 3, a nulls last, grouping(a, b), b nulls last"));
    }

    @Test
    void averagesRolledUpEqualAveragesOfTheRows() {
        // -99999.9 three times: dividing the sum as a double, then by 3, gives -99999.90000000001.
        execute("create table d (k integer, v decimal(10,1), i integer, f double)");
        execute("insert into d values (1, -99999.9, 7, 0.1), (1, -99999.9, 8, 0.2), (2, -99999.9, 9, 0.3)");
        assertEquals(List.of("1|-99999.9|7.5|0.15000000000000002", "2|-99999.9|9.0|0.3", "null|-99999.9|8.0|0.20000000000000004"),
                rows("select k, avg(v), avg(i), avg(f) from d group by rollup (k) order by k nulls last"));
        assertEquals(rows("select avg(v), avg(i) from d"), rows("select avg(v), avg(i) from d group by rollup (k) having grouping(k) = 1"));
    }

    @Test
    void anEmptyInputHasOnlyTheGrandTotalRow() {
        assertEquals(List.of("null|null|0|null|null|3"),
                rows("select a, b, count(*), sum(x), avg(x), grouping(a, b) from empty_t group by rollup (a, b)"));
        assertEquals(List.of("null|null|0|0"),
                rows("select a, b, count(distinct c), count(*) from empty_t group by cube (a, b)"));
        assertEquals(List.of(), rows("select a, count(*) from empty_t group by grouping sets ((a), (b))"));
    }

    @Test
    void groupingOfAColumnNotGroupedIsAnError() {
        WarpException e = assertThrows(WarpException.class,
                () -> rows("select a, grouping(b) from t group by rollup (a)"));
        assertEquals("42803", e.sqlState(), e.getMessage());
        e = assertThrows(WarpException.class, () -> rows("select grouping(a) from t"));
        assertEquals("42803", e.sqlState(), e.getMessage());
        assertTrue(Arrays.asList(e.getMessage().split(" ")).contains("GROUPING"), e.getMessage());
    }
}
