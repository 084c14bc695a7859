package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.FunctionCall;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.Node;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.TableRef;
import io.warpdb.fuzz.ast.Unary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MinimizerTest {
    private static final ColumnRef C0 = new ColumnRef("a1", "c0", SqlType.INTEGER);
    private static final ColumnRef C1 = new ColumnRef("a1", "c1", SqlType.VARCHAR);

    /** SELECT a1.c0, UPPER(a1.c1) FROM t0 WHERE a1.c0 = 7 AND a1.c1 IS NOT NULL ORDER BY 1, 2. */
    private static DifferentialCase query() {
        Expr equals7 = new Binary(Binary.Op.EQ, C0, new Literal(7, SqlType.INTEGER), SqlType.BOOLEAN);
        Expr where = new Binary(Binary.Op.AND, equals7, new Unary(Unary.Op.IS_NOT_NULL, C1, SqlType.BOOLEAN), SqlType.BOOLEAN);
        Select s = Select.of(List.of(new SelectItem(C0, "x0"), new SelectItem(new FunctionCall("UPPER", List.of(C1), SqlType.VARCHAR),
                "x1")), new TableRef("t0", "a1")).withWhere(where).withOrder(Select.ascendingOn(2), 5, null);
        return new DifferentialCase(s);
    }

    private static Dataset data() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(Arrays.asList(i, i % 3 == 0 ? null : "v" + i));
        }
        Table t0 = new Table("t0", List.of(new Column("c0", SqlType.INTEGER), new Column("c1", SqlType.VARCHAR)), rows);
        Table t1 = new Table("t1", List.of(new Column("c0", SqlType.BIGINT)), List.of(List.of(1L)));
        return new Dataset(List.of(t0, t1));
    }

    /**
     * A stand-in for a failing engine: the "bug" shows while t0 has the row with c0 = 7 and the
     * query filters on a1.c0 = 7; a candidate whose query names a column the data lacks fails
     * differently (as an engine would), so it does not count.
     */
    private static boolean reproduces(Dataset d, OracleCase c) {
        String sql = c.queries().get(0).render(Dialect.WARPDB);
        Table t0 = d.tables().stream().filter(t -> t.name().equals("t0")).findFirst().orElse(null);
        if (t0 == null || !sql.contains("(a1.c0 = 7)")) {
            return false;
        }
        for (Column col : List.of(new Column("c0", SqlType.INTEGER), new Column("c1", SqlType.VARCHAR))) {
            if (sql.contains("a1." + col.name()) && !t0.columns().contains(col)) {
                return false;
            }
        }
        int c0 = t0.columns().indexOf(new Column("c0", SqlType.INTEGER));
        return t0.rows().stream().anyMatch(r -> Integer.valueOf(7).equals(r.get(c0)));
    }

    @Test
    void shrinksTablesRowsColumnsAndTheQuery() {
        Minimizer.Result r = new Minimizer(MinimizerTest::reproduces, 1000, 60_000).minimize(data(), query());
        assertEquals(List.of("CREATE TABLE t0 (c0 INTEGER)", "INSERT INTO t0 VALUES (7)"), r.dataset().statements());
        assertEquals("SELECT CAST(NULL AS VARCHAR) AS x1 FROM t0 AS a1 WHERE (a1.c0 = 7)",
                r.fuzzCase().queries().get(0).render(Dialect.WARPDB));
    }

    @Test
    void stopsAtTheAttemptBudgetWithTheSmallestFailingCaseSoFar() {
        Minimizer.Result r = new Minimizer(MinimizerTest::reproduces, 3, 60_000).minimize(data(), query());
        assertEquals(3, r.attempts());
        // Dropping t1 reproduces; dropping the WHERE clause does not; dropping LIMIT does.
        assertEquals(List.of("t0"), r.dataset().tables().stream().map(Table::name).toList());
        assertEquals("SELECT a1.c0 AS x0, UPPER(a1.c1) AS x1 FROM t0 AS a1 WHERE ((a1.c0 = 7) AND (a1.c1 IS NOT NULL))"
                + " ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST", r.fuzzCase().queries().get(0).render(Dialect.WARPDB));
    }

    @Test
    void pathsReachEveryNodeAndReplaceRebuildsTheTree() {
        DifferentialCase c = query();
        List<List<Integer>> paths = Minimizer.paths(c);
        Node where = ((Select) c.query()).where();
        List<Integer> wherePath = paths.stream().filter(p -> Minimizer.at(c, p) == where).findFirst().orElseThrow();
        Node replaced = Minimizer.replace(c, wherePath, 0, new Literal(true, SqlType.BOOLEAN));
        assertEquals("SELECT a1.c0 AS x0, UPPER(a1.c1) AS x1 FROM t0 AS a1 WHERE TRUE ORDER BY 1 ASC NULLS LAST, 2 ASC NULLS LAST LIMIT 5",
                ((DifferentialCase) replaced).query().render(Dialect.WARPDB));
    }
}
