package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.Dialect;
import io.warpdb.fuzz.ast.Expr;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.Select;
import io.warpdb.fuzz.ast.SelectItem;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.TableRef;
import io.warpdb.fuzz.ast.Unary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The queries the reference-free oracles compare. */
class OracleCaseTest {
    private static final ColumnRef C0 = new ColumnRef("a1", "c0", SqlType.INTEGER);
    private static final Expr P = new Binary(Binary.Op.GT, C0, new Literal(3, SqlType.INTEGER), SqlType.BOOLEAN);
    private static final TableRef T0 = new TableRef("t0", "a1");

    @Test
    void tlpWherePartitionsTheRowsIntoThreeUnionAllBranches() {
        TlpCase c = new TlpCase(TlpCase.Variant.WHERE, Select.of(List.of(new SelectItem(C0, "x0")), T0), P);
        assertEquals("((SELECT a1.c0 AS x0 FROM t0 AS a1 WHERE (a1.c0 > 3)) UNION ALL (SELECT a1.c0 AS x0 FROM t0 AS a1"
                + " WHERE (NOT (a1.c0 > 3)))) UNION ALL (SELECT a1.c0 AS x0 FROM t0 AS a1 WHERE ((a1.c0 > 3) IS NULL))",
                c.partitioned().render(Dialect.WARPDB));
    }

    @Test
    void tlpKeepsTheBaseQuerysOwnWhereInEveryPartition() {
        Expr w = new Unary(Unary.Op.IS_NOT_NULL, C0, SqlType.BOOLEAN);
        Select base = Select.of(List.of(new SelectItem(C0, "x0")), T0).withWhere(w).withDistinct(true);
        TlpCase c = new TlpCase(TlpCase.Variant.DISTINCT, base, P);
        assertTrue(c.partitioned().render(Dialect.WARPDB).startsWith("((SELECT DISTINCT a1.c0 AS x0 FROM t0 AS a1 WHERE"
                + " ((a1.c0 IS NOT NULL) AND (a1.c0 > 3))) UNION (SELECT DISTINCT"));
        assertTrue(c.wellFormed());
        assertFalse(new TlpCase(TlpCase.Variant.DISTINCT, base.withDistinct(false), P).wellFormed());
    }

    @Test
    void tlpAggregatesThePartitionsAggregatesCountBySum() {
        Aggregate count = new Aggregate(Aggregate.Function.COUNT, false, C0, null, SqlType.BIGINT);
        TlpCase c = new TlpCase(TlpCase.Variant.AGGREGATE, Select.of(List.of(new SelectItem(count, "x0")), T0), P);
        assertEquals("SELECT SUM(tlp.x0) AS x0 FROM (((SELECT COUNT(a1.c0) AS x0 FROM t0 AS a1 WHERE (a1.c0 > 3)) UNION ALL"
                + " (SELECT COUNT(a1.c0) AS x0 FROM t0 AS a1 WHERE (NOT (a1.c0 > 3)))) UNION ALL (SELECT COUNT(a1.c0) AS x0"
                + " FROM t0 AS a1 WHERE ((a1.c0 > 3) IS NULL))) AS tlp", c.partitioned().render(Dialect.WARPDB));
        Aggregate countDistinct = new Aggregate(Aggregate.Function.COUNT, true, C0, null, SqlType.BIGINT);
        assertFalse(new TlpCase(TlpCase.Variant.AGGREGATE, Select.of(List.of(new SelectItem(countDistinct, "x0")), T0), P)
                .wellFormed());
    }

    @Test
    void tlpGroupByNeedsExactlyTheKeysAsColumns() {
        Select grouped = Select.of(List.of(new SelectItem(C0, "x0")), T0).withGroupBy(List.of(C0));
        assertTrue(new TlpCase(TlpCase.Variant.GROUP_BY, grouped, P).wellFormed());
        Select fewerColumns = Select.of(List.of(new SelectItem(new Literal(1, SqlType.INTEGER), "x0")), T0).withGroupBy(List.of(C0));
        assertFalse(new TlpCase(TlpCase.Variant.GROUP_BY, fewerColumns, P).wellFormed());
    }

    @Test
    void norecCountsWithAFilterAndSumsTheFlagWithout() {
        NoRecCase c = new NoRecCase(T0, null, P);
        assertEquals("SELECT COUNT(*) AS x0 FROM t0 AS a1 WHERE (a1.c0 > 3)", c.optimized().render(Dialect.WARPDB));
        assertEquals("SELECT SUM(CASE WHEN (a1.c0 > 3) THEN 1 ELSE 0 END) AS x0 FROM t0 AS a1", c.unoptimized().render(Dialect.WARPDB));
    }
}
