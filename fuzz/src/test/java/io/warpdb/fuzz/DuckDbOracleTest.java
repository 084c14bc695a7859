package io.warpdb.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.fuzz.QueryFailure.Kind;
import io.warpdb.fuzz.QueryResult.ResultColumn;
import io.warpdb.fuzz.ast.Aggregate;
import io.warpdb.fuzz.ast.Binary;
import io.warpdb.fuzz.ast.Cast;
import io.warpdb.fuzz.ast.ColumnRef;
import io.warpdb.fuzz.ast.Literal;
import io.warpdb.fuzz.ast.SqlType;
import io.warpdb.fuzz.ast.Unary;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How WarpDB's outcome is judged against DuckDB's. */
class DuckDbOracleTest {
    private static Outcome rows(Object... values) {
        return Outcome.of(new QueryResult(List.of(new ResultColumn("x0", Types.INTEGER, "INTEGER", 0)),
                Arrays.stream(values).map(v -> Arrays.asList(v)).toList()));
    }

    private static Outcome warpError(String state) {
        return Outcome.failed(QueryFailure.ofWarpDb(new SQLException("boom", state)));
    }

    private static Outcome duckError(String message) {
        return Outcome.failed(QueryFailure.ofDuckDb(new SQLException(message)));
    }

    private static Verdict judge(Outcome warp, Outcome duck) {
        return DuckDbOracle.judge("cpu", warp, duck, false).verdict();
    }

    @Test
    void verdicts() {
        assertEquals(Verdict.OK, judge(rows(1, 2), rows(2, 1)));
        assertEquals(Verdict.MISMATCH, judge(rows(1), rows(2)));
        assertEquals(Verdict.RAW_ERROR, judge(warpError("XX000"), rows(1)));
        assertEquals(Verdict.RAW_ERROR, judge(warpError(null), rows(1)));
        assertEquals(Verdict.RAW_ERROR, judge(Outcome.failed(QueryFailure.ofWarpDb(new NullPointerException())), rows(1)));
        assertEquals(Verdict.UNSUPPORTED, judge(warpError("0A000"), rows(1)));
        assertEquals(Verdict.EXPECTED_ERROR, judge(warpError("22012"), duckError("Invalid Input Error: Division by zero")));
        assertEquals(Verdict.EXPECTED_ERROR, judge(warpError("22003"), rows(1)));
        assertEquals(Verdict.MISMATCH, judge(warpError("42804"), rows(1)));
        assertEquals(Verdict.INVALID, judge(warpError("42601"), duckError("Parser Error: syntax error")));
        assertEquals(Verdict.TIMEOUT, judge(warpError("57014"), rows(1)));
    }

    @Test
    void divisionsTestedForNullAreNotRecheckedWithDivisionAsNull() {
        ColumnRef c = new ColumnRef("a1", "c0", SqlType.INTEGER);
        Binary quotient = new Binary(Binary.Op.DIVIDE, c, new Literal(0, SqlType.INTEGER), SqlType.INTEGER);
        assertTrue(DuckDbOracle.testsDivisionForNull(new Unary(Unary.Op.IS_NOT_NULL,
                new Cast(quotient, SqlType.BIGINT), SqlType.BOOLEAN)));
        assertTrue(DuckDbOracle.testsDivisionForNull(new Aggregate(Aggregate.Function.COUNT, false, quotient, null, SqlType.BIGINT)));
        assertFalse(DuckDbOracle.testsDivisionForNull(new Aggregate(Aggregate.Function.SUM, false, quotient, null, SqlType.BIGINT)));
        assertFalse(DuckDbOracle.testsDivisionForNull(new Unary(Unary.Op.IS_NULL, c, SqlType.BOOLEAN)));
        assertTrue(DuckDbOracle.testsDivisionForNull(new Binary(Binary.Op.IS_DISTINCT_FROM, Literal.nullOf(SqlType.INTEGER),
                quotient, SqlType.BOOLEAN)));
        assertTrue(DuckDbOracle.testsDivisionForNull(new Binary(Binary.Op.IS_DISTINCT_FROM, c, quotient, SqlType.BOOLEAN)));
        assertFalse(DuckDbOracle.testsDivisionForNull(new Binary(Binary.Op.EQ, c, quotient, SqlType.BOOLEAN)));
    }

    @Test
    void duckDbErrorsAreClassifiedByTheirMessage() {
        assertEquals(Kind.DATA, QueryFailure.ofDuckDb(new SQLException("Out of Range Error: Overflow in addition")).kind());
        assertEquals(Kind.DATA, QueryFailure.ofDuckDb(new SQLException("Conversion Error: Could not convert")).kind());
        assertEquals(Kind.OTHER, QueryFailure.ofDuckDb(new SQLException("Binder Error: no such column")).kind());
    }
}
