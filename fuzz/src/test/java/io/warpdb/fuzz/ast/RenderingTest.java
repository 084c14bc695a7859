package io.warpdb.fuzz.ast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class RenderingTest {
    private static final ColumnRef I = new ColumnRef("a1", "c0", SqlType.INTEGER);
    private static final ColumnRef B = new ColumnRef("a1", "c1", SqlType.BIGINT);
    private static final ColumnRef M = new ColumnRef("a1", "c2", SqlType.decimal(10, 2));
    private static final ColumnRef D = new ColumnRef("a1", "c3", SqlType.DOUBLE);
    private static final ColumnRef DAY = new ColumnRef("a1", "c4", SqlType.DATE);

    @Test
    void integerDivisionIsDuckDbsDoubleSlash() {
        Binary ints = new Binary(Binary.Op.DIVIDE, I, B, TypeRules.arithmetic(Binary.Op.DIVIDE, I.type(), B.type()));
        assertEquals("(a1.c0 / a1.c1)", ints.render(Dialect.WARPDB));
        assertEquals("(a1.c0 // a1.c1)", ints.render(Dialect.DUCKDB));
        Binary decimals = new Binary(Binary.Op.DIVIDE, M, I, TypeRules.arithmetic(Binary.Op.DIVIDE, M.type(), I.type()));
        assertEquals(SqlType.DOUBLE, decimals.type());
        assertEquals("(a1.c2 / a1.c0)", decimals.render(Dialect.DUCKDB));
    }

    @Test
    void dateShiftsStayDatesInDuckDb() {
        DateShift back = new DateShift(DAY, -3, DateShift.Unit.MONTH);
        assertEquals("(a1.c4 - INTERVAL '3' MONTH)", back.render(Dialect.WARPDB));
        assertEquals("CAST((a1.c4 - INTERVAL '3' MONTH) AS DATE)", back.render(Dialect.DUCKDB));
    }

    @Test
    void doublesCastToIntegersRoundHalfAwayFromZeroInBoth() {
        Cast cast = new Cast(D, SqlType.INTEGER);
        assertEquals("CAST(a1.c3 AS INTEGER)", cast.render(Dialect.WARPDB));
        assertEquals("CAST(ROUND(a1.c3) AS INTEGER)", cast.render(Dialect.DUCKDB));
        assertEquals("CAST(a1.c2 AS INTEGER)", new Cast(M, SqlType.INTEGER).render(Dialect.DUCKDB));
    }

    @Test
    void productsThatLoseFractionDigitsInWarpDbAreRoundedAlikeInDuckDb() {
        ColumnRef wide = new ColumnRef("a1", "c5", SqlType.decimal(15, 5));
        Binary square = new Binary(Binary.Op.MULTIPLY, wide, wide, TypeRules.arithmetic(Binary.Op.MULTIPLY, wide.type(), wide.type()));
        assertEquals(SqlType.decimal(18, 6), square.type());
        assertEquals("(a1.c5 * a1.c5)", square.render(Dialect.WARPDB));
        assertEquals("CAST((a1.c5 * a1.c5) AS DECIMAL(18,6))", square.render(Dialect.DUCKDB));
        ColumnRef whole = new ColumnRef("a1", "c7", SqlType.decimal(18, 0));
        Binary wholeSquare = new Binary(Binary.Op.MULTIPLY, whole, whole, TypeRules.arithmetic(Binary.Op.MULTIPLY, whole.type(), whole.type()));
        assertEquals("CAST((a1.c7 * a1.c7) AS DECIMAL(18,0))", wholeSquare.render(Dialect.DUCKDB));
        ColumnRef small = new ColumnRef("a1", "c8", SqlType.decimal(4, 2));
        Binary exact = new Binary(Binary.Op.MULTIPLY, small, small, TypeRules.arithmetic(Binary.Op.MULTIPLY, small.type(), small.type()));
        assertEquals("(a1.c8 * a1.c8)", exact.render(Dialect.DUCKDB));
    }

    @Test
    void decimalsBecomeTextAtWarpDbsScaleInDuckDb() {
        assertEquals("CAST(a1.c2 AS VARCHAR)", new Cast(M, SqlType.VARCHAR).render(Dialect.WARPDB));
        assertEquals("CAST(CAST(a1.c2 AS DECIMAL(10,2)) AS VARCHAR)", new Cast(M, SqlType.VARCHAR).render(Dialect.DUCKDB));
        ColumnRef fraction = new ColumnRef("a1", "c6", SqlType.decimal(4, 4));
        assertEquals("CAST(CAST(a1.c6 AS DECIMAL(5,4)) AS VARCHAR)", new Cast(fraction, SqlType.VARCHAR).render(Dialect.DUCKDB));
    }

    @Test
    void literalsKeepTheirTypes() {
        assertEquals("(-5)", Literal.sql(-5, SqlType.INTEGER));
        assertEquals("CAST('-2147483648' AS INTEGER)", Literal.sql(Integer.MIN_VALUE, SqlType.INTEGER));
        assertEquals("CAST(7 AS BIGINT)", Literal.sql(7L, SqlType.BIGINT));
        assertEquals("3000000000", Literal.sql(3_000_000_000L, SqlType.BIGINT));
        assertEquals("CAST('9223372036854775807' AS BIGINT)", Literal.sql(Long.MAX_VALUE, SqlType.BIGINT));
        assertEquals("2.5E0", Literal.sql(2.5, SqlType.DOUBLE));
        assertEquals("(-1.0E-300)", Literal.sql(-1e-300, SqlType.DOUBLE));
        assertEquals("(-0.50)", Literal.sql(new BigDecimal("-0.50"), SqlType.decimal(4, 2)));
        assertEquals("CAST(12 AS DECIMAL(4,0))", Literal.sql(new BigDecimal("12"), SqlType.decimal(4, 0)));
        assertEquals("DATE '0001-01-01'", Literal.sql(LocalDate.of(1, 1, 1), SqlType.DATE));
        assertEquals("'it''s'", Literal.sql("it's", SqlType.varchar(5)));
        assertEquals("CAST(NULL AS CHAR(3))", Literal.nullOf(SqlType.charOf(3)).render(Dialect.WARPDB));
        // a - (-1), never the comment a --1.
        assertEquals("(a1.c0 - (-1))", new Binary(Binary.Op.SUBTRACT, I, new Literal(-1, SqlType.INTEGER), SqlType.INTEGER)
                .render(Dialect.WARPDB));
    }

    @Test
    void selectRendersEveryClause() {
        Select inner = Select.of(List.of(new SelectItem(I, "x0")), new TableRef("t1", "a2"));
        Select s = new Select(List.of(new CommonTableExpression("w3", inner)), true,
                List.of(new SelectItem(I, "x0"), new SelectItem(new Aggregate(Aggregate.Function.COUNT, false, null,
                        new Unary(Unary.Op.IS_NULL, B, SqlType.BOOLEAN), SqlType.BIGINT), "x1")),
                new Join(Join.Kind.LEFT, new TableRef("t0", "a1"), new DerivedTable(inner, "d4"),
                        new Binary(Binary.Op.EQ, I, new ColumnRef("d4", "x0", SqlType.INTEGER), SqlType.BOOLEAN)),
                new Exists(inner, true), List.of(I), new Binary(Binary.Op.GT, new Aggregate(Aggregate.Function.SUM, true, B, null,
                        SqlType.BIGINT), new Literal(1L, SqlType.BIGINT), SqlType.BOOLEAN),
                List.of(new OrderKey(2, true, true), new OrderKey(1, false, false)), 3, 1);
        assertEquals("WITH w3 AS (SELECT a1.c0 AS x0 FROM t1 AS a2) SELECT DISTINCT a1.c0 AS x0,"
                + " COUNT(*) FILTER (WHERE (a1.c1 IS NULL)) AS x1 FROM t0 AS a1 LEFT JOIN (SELECT a1.c0 AS x0 FROM t1 AS a2) AS d4"
                + " ON (a1.c0 = d4.x0) WHERE (NOT EXISTS (SELECT a1.c0 AS x0 FROM t1 AS a2)) GROUP BY a1.c0"
                + " HAVING (SUM(DISTINCT a1.c1) > CAST(1 AS BIGINT)) ORDER BY 2 DESC NULLS FIRST, 1 ASC NULLS LAST LIMIT 3 OFFSET 1",
                s.render(Dialect.WARPDB));
        assertEquals(true, s.totallyOrdered());
        assertEquals("(SELECT a1.c0 AS x0 FROM t1 AS a2) EXCEPT ALL (SELECT a1.c0 AS x0 FROM t1 AS a2)",
                new SetOperation(SetOperation.Op.EXCEPT, true, inner, inner).render(Dialect.DUCKDB));
    }

    @Test
    void typeRulesFollowWarpDb() {
        assertEquals(SqlType.BIGINT, TypeRules.arithmetic(Binary.Op.ADD, SqlType.INTEGER, SqlType.BIGINT));
        assertEquals(SqlType.decimal(13, 2), TypeRules.arithmetic(Binary.Op.ADD, SqlType.decimal(10, 2), SqlType.INTEGER));
        assertEquals(SqlType.decimal(8, 4), TypeRules.arithmetic(Binary.Op.MULTIPLY, SqlType.decimal(4, 2), SqlType.decimal(4, 2)));
        assertEquals(SqlType.decimal(18, 7), TypeRules.arithmetic(Binary.Op.MULTIPLY, SqlType.decimal(15, 4), SqlType.decimal(4, 4)));
        assertEquals(SqlType.decimal(18, 6), TypeRules.arithmetic(Binary.Op.MULTIPLY, SqlType.decimal(18, 6), SqlType.decimal(18, 6)));
        assertEquals(SqlType.decimal(18, 2), TypeRules.aggregate(Aggregate.Function.SUM, SqlType.decimal(5, 2)));
        assertEquals(SqlType.DOUBLE, TypeRules.aggregate(Aggregate.Function.AVG, SqlType.INTEGER));
        assertEquals(SqlType.VARCHAR, TypeRules.common(SqlType.charOf(3), SqlType.varchar(2)));
        assertEquals(SqlType.charOf(5), TypeRules.common(SqlType.charOf(3), SqlType.charOf(5)));
    }
}
