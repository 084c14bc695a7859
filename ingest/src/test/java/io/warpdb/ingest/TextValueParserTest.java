package io.warpdb.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.types.DataType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The text-to-value parser that CSV loads and TPC-H's .tbl reader share: values, and what a bad field says. */
class TextValueParserTest {
    private static final DataType MONEY = DataType.decimal(15, 2);

    /** A field between delimiters, so that the parser must keep to its bounds. */
    private record Field(byte[] line, int from, int to) {
        static Field of(String text) {
            byte[] line = ("|" + text + "|").getBytes(StandardCharsets.UTF_8);
            return new Field(line, 1, line.length - 1);
        }
    }

    private static int integer(String text) {
        Field f = Field.of(text);
        return TextValueParser.parseInteger(f.line(), f.from(), f.to());
    }

    private static long bigint(String text) {
        Field f = Field.of(text);
        return TextValueParser.parseBigint(f.line(), f.from(), f.to());
    }

    private static long money(String text) {
        Field f = Field.of(text);
        return TextValueParser.parseDecimal(f.line(), f.from(), f.to(), MONEY);
    }

    private static int date(String text) {
        Field f = Field.of(text);
        return TextValueParser.parseDate(f.line(), f.from(), f.to());
    }

    private static void assertBad(SqlState state, String expected, Executable parse) {
        BadValueException e = assertThrows(BadValueException.class, parse);
        assertEquals(state, e.state());
        assertEquals(expected, e.expected());
    }

    @Test
    void integersAndTheirRanges() {
        assertEquals(-2147483648, integer("-2147483648"));
        assertEquals(42, integer("+42"));
        assertEquals(Long.MIN_VALUE, bigint("-9223372036854775808"));
        assertBad(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "an INTEGER (-2147483648..2147483647)", () -> integer("2147483648"));
        assertBad(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a BIGINT in range", () -> bigint("9223372036854775808"));
        assertBad(SqlState.INVALID_TEXT_REPRESENTATION, "an INTEGER", () -> integer("-"));
        assertBad(SqlState.INVALID_TEXT_REPRESENTATION, "a BIGINT", () -> bigint("1.0"));
    }

    @Test
    void decimalsAreUnscaledAndRoundHalfAwayFromZero() {
        assertEquals(2471035L, money("24710.35"));
        assertEquals(1700L, money("17"));
        assertEquals(-13L, money("-0.125"));
        assertBad(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a DECIMAL(15,2) (at most 13 digits before the point)",
                () -> money("12345678901234"));
        assertBad(SqlState.INVALID_TEXT_REPRESENTATION, "a DECIMAL(15,2)", () -> money("."));
    }

    @Test
    void datesDoublesAndBooleans() {
        assertEquals(9568, date("1996-03-13"));
        assertEquals(19_782, date("2024-02-29"));
        assertEquals(-719_528, date("0000-01-01"));
        assertBad(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)", () -> date("2023-02-29"));
        assertBad(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)", () -> date("1996-13-01"));
        // A letter in the year is not year -1 (1 BC).
        assertBad(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)", () -> date("x123-01-01"));
        assertBad(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)", () -> date("1996-02-30"));
        assertBad(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)", () -> date("1996-3-13"));
        assertEquals(-2000.0, TextValueParser.parseDouble("-2e3"));
        assertBad(SqlState.INVALID_TEXT_REPRESENTATION, "a DOUBLE", () -> TextValueParser.parseDouble(" 1"));
        assertTrue(TextValueParser.parseBoolean("Yes"));
        assertFalse(TextValueParser.parseBoolean("0"));
        assertBad(SqlState.INVALID_TEXT_REPRESENTATION, "a BOOLEAN (true or false)", () -> TextValueParser.parseBoolean("maybe"));
    }

    @Test
    void timestampsAreMicrosecondsSince1970() {
        assertEquals(1_704_164_645_123_456L, TextValueParser.parseTimestamp("2024-01-02 03:04:05.123456"));
        assertEquals(1_704_164_645_100_000L, TextValueParser.parseTimestamp("2024-01-02T03:04:05.1"));
        assertEquals(-1L, TextValueParser.parseTimestamp("1969-12-31 23:59:59.999999"));
        assertEquals(86_400_000_000L, TextValueParser.parseTimestamp("1970-01-02"));
        for (String bad : new String[] {"2024-01-02 24:00:00", "2024-01-02 03:04:05.1234567", "2024-01-02 3:04:05", "2024-02-30 00:00:00",
            "2024-01-02 03:04:05.", "2024-01-02 03:04:05Z"}) {
            assertBad(SqlState.INVALID_DATETIME_FORMAT, "a TIMESTAMP (yyyy-mm-dd hh:mm:ss[.ffffff])", () -> TextValueParser.parseTimestamp(bad));
        }
    }
}
