package io.warpdb.exec.cpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CastTest extends ExecTestBase {
    private Object cast(Expr value, DataType to) {
        return evalConstant(call(Op.CAST, to, value));
    }

    private WarpException castFailing(Expr value, DataType to, SqlState expected) {
        return evalConstantFailing(call(Op.CAST, to, value), expected);
    }

    @Test
    void numericToNumeric() {
        assertEquals(bd("12.35"), cast(dec("12.345"), dec(10, 2)));
        assertEquals(bd("-12.35"), cast(dec("-12.345"), dec(10, 2)));
        assertEquals(bd("7.000"), cast(lit(7), dec(10, 3)));
        assertEquals(13L, cast(dec("12.5"), BIGINT));
        assertEquals(-13, cast(dec("-12.5"), INT));
        assertEquals(12.345, cast(dec("12.345"), DOUBLE));
        assertEquals(3, cast(dbl(2.5), INT));
        assertEquals(-3, cast(dbl(-2.5), INT));
        assertEquals(bd("0.29"), cast(dbl(0.285), dec(10, 2)));
        assertEquals(bd("1.01"), cast(dbl(1.005), dec(10, 2)));
        assertEquals(5.0, cast(bigint(5), DOUBLE));
    }

    @Test
    void numericOverflowIs22003() {
        castFailing(bigint(3_000_000_000L), INT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        castFailing(dec("1000.00"), dec(5, 2), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        castFailing(dec("999.995"), dec(5, 2), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        castFailing(dbl(1e30), BIGINT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        castFailing(dbl(Double.NaN), INT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        assertEquals(bd("999.99"), cast(dec("999.994"), dec(5, 2)));
    }

    @Test
    void textToEveryType() {
        assertEquals(42, cast(str(" 42 "), INT));
        assertEquals(-9000000000L, cast(str("-9000000000"), BIGINT));
        assertEquals(bd("3.14"), cast(str("3.14159"), dec(10, 2)));
        assertEquals(2.5e-3, cast(str("2.5e-3"), DOUBLE));
        assertEquals(date("1996-02-29"), cast(str("1996-02-29"), DATE));
        assertEquals(true, cast(str("TRUE"), BOOL));
        assertEquals(true, cast(str(" t"), BOOL));
        assertEquals(false, cast(str("0"), BOOL));
        assertEquals(false, cast(str("False"), BOOL));
    }

    @Test
    void badTextIs22P02NamingTheValueAndType() {
        WarpException e = castFailing(str("abc"), INT, SqlState.INVALID_TEXT_REPRESENTATION);
        assertTrue(e.getMessage().contains("'abc'") && e.getMessage().contains("INTEGER"), e.getMessage());
        castFailing(str("1.5"), INT, SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("1e3x"), DOUBLE, SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("1d"), DOUBLE, SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("12,5"), dec(10, 2), SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("1996-02-30"), DATE, SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("yes"), BOOL, SqlState.INVALID_TEXT_REPRESENTATION);
        castFailing(str("99999999999"), INT, SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        castFailing(str("123.45"), dec(4, 2), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
    }

    @Test
    void badTextInAnUnusedDictionaryEntryIsNoError() {
        // Row "x" is filtered away by the CASE; the dictionary still holds it, and must not be parsed.
        TestTable t = TestTable.of("t", "s", VARCHAR).batch(row("1"), row("x"), row("30")).nonUniqueDictionaries();
        Expr s = col(0, VARCHAR);
        Expr parsed = call(Op.CASE, INT, call(Op.NE, BOOL, s, str("x")), call(Op.CAST, INT, s), nul(INT));
        assertEquals(Arrays.asList(1, null, 30), eval(t, parsed));
        evalFailing(t, call(Op.CAST, INT, s), SqlState.INVALID_TEXT_REPRESENTATION);
    }

    @Test
    void everythingToText() {
        assertEquals("1.50", cast(dec("1.50"), VARCHAR));
        assertEquals("-0.05", cast(dec("-0.05"), VARCHAR));
        assertEquals("42", cast(lit(42), VARCHAR));
        assertEquals("1.5", cast(dbl(1.5), VARCHAR));
        assertEquals("1.0E10", cast(dbl(1e10), VARCHAR));
        assertEquals("1995-03-05", cast(dateLit("1995-03-05"), VARCHAR));
        assertEquals("0099-01-01", cast(dateLit("0099-01-01"), VARCHAR));
        assertEquals("TRUE", cast(bool(true), VARCHAR));
        assertEquals("FALSE", cast(bool(false), DataType.chars(5)));
        castFailing(lit(12345), DataType.varchar(4), SqlState.STRING_DATA_RIGHT_TRUNCATION);
        assertEquals(null, cast(nul(INT), VARCHAR));
    }

    @Test
    void castsOverColumnsWithNulls() {
        TestTable t = TestTable.of("t", "s", VARCHAR, "d", dec(15, 2)).batch(row("7", bd("1.25")), row(null, null));
        assertEquals(Arrays.asList(7L, null), eval(t, call(Op.CAST, BIGINT, col(0, VARCHAR))));
        assertEquals(Arrays.asList("1.25", null), eval(t, call(Op.CAST, VARCHAR, col(1, dec(15, 2)))));
        assertEquals(Arrays.asList(bd("1.3"), null), eval(t, call(Op.CAST, dec(3, 1), col(1, dec(15, 2)))));
    }
}
