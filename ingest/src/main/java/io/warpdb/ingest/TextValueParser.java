package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Text fields parsed into column values, as WarpDB stores them: the one parser for every text
 * format (CSV, dbgen {@code .tbl}), used by COPY, {@code warpdb load}, schema inference and
 * TPC-H's {@code .tbl} reader. Byte arguments are the UTF-8 text {@code b[from..to)}. A field
 * that is not a value of the type throws {@link BadValueException} saying what was expected.
 */
public final class TextValueParser {
    /** Digits that cannot overflow a long, so need no check per digit (a division, which cost most of parsing). */
    private static final int MAX_SAFE_DIGITS = 18;

    private TextValueParser() {
    }

    /** An INTEGER. */
    public static int parseInteger(byte[] b, int from, int to) {
        long v = parseLong(b, from, to, DataType.INTEGER);
        if (v != (int) v) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "an INTEGER (-2147483648..2147483647)");
        }
        return (int) v;
    }

    /** A TINYINT or SMALLINT (held as an int). */
    public static int parseNarrowInteger(byte[] b, int from, int to, DataType type) {
        long v = parseLong(b, from, to, type);
        if (Decimals.exceedsRange(v, type)) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, rangeOf(type));
        }
        return (int) v;
    }

    /** What a value of a TINYINT or SMALLINT column must be, e.g. {@code a SMALLINT (-32768..32767)}. */
    static String rangeOf(DataType type) {
        long max = (1L << (type.precision() - 1)) - 1;
        return "a " + type.sqlName() + " (" + (-max - 1) + ".." + max + ")";
    }

    /** A BIGINT. */
    public static long parseBigint(byte[] b, int from, int to) {
        return parseLong(b, from, to, DataType.BIGINT);
    }

    /** What a value of an integer {@code type} must be, made only for an error: building it per value cost a third of parsing. */
    private static String expected(DataType type) {
        return type.kind() == TypeKind.INTEGER && !type.isNarrowInteger() ? "an INTEGER" : "a " + type.sqlName();
    }

    private static long parseLong(byte[] b, int from, int to, DataType type) {
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        if (i == to) {
            throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected(type));
        }
        long value = 0;
        if (to - i <= MAX_SAFE_DIGITS) {
            for (; i < to; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) {
                    throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected(type));
                }
                value = value * 10 + d;
            }
            return negative ? -value : value;
        }
        for (; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected(type));
            }
            // Accumulate negatively so that the most negative value parses too.
            if (value < (Long.MIN_VALUE + d) / 10) {
                throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, expected(type) + " in range");
            }
            value = value * 10 - d;
        }
        if (!negative && value == Long.MIN_VALUE) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, expected(type) + " in range");
        }
        return negative ? value : -value;
    }

    /** A value of the DECIMAL {@code type}, unscaled; fraction digits beyond its scale round half away from zero. */
    public static long parseDecimal(byte[] b, int from, int to, DataType type) {
        int scale = type.scale();
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        long value = 0;
        int integerDigits = 0;
        int fraction = -1; // fraction digits kept; -1 before the point
        boolean roundUp = false;
        boolean anyDigit = false;
        for (; i < to; i++) {
            byte c = b[i];
            if (c == '.' && fraction < 0) {
                fraction = 0;
                continue;
            }
            if (c < '0' || c > '9') {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a " + type.sqlName());
            }
            anyDigit = true;
            if (fraction < 0) {
                if (value != 0 || c != '0') {
                    integerDigits++;
                }
                value = value * 10 + (c - '0');
            } else if (fraction < scale) {
                value = value * 10 + (c - '0');
                fraction++;
            } else if (fraction == scale) {
                roundUp = c >= '5';
                fraction++;
            }
            if (integerDigits > type.precision() - scale) {
                throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a " + type.sqlName() + " (at most "
                        + (type.precision() - scale) + " digits before the point)");
            }
        }
        if (!anyDigit) {
            throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a " + type.sqlName());
        }
        for (int f = Math.max(fraction, 0); f < scale; f++) {
            value *= 10;
        }
        if (roundUp) {
            value++;
        }
        return negative ? -value : value;
    }

    /** A DOUBLE, in Java's syntax, without surrounding white space. */
    public static double parseDouble(String text) {
        try {
            if (!text.isEmpty() && !Character.isWhitespace(text.charAt(0)) && !Character.isWhitespace(text.charAt(text.length() - 1))) {
                return Double.parseDouble(text);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a DOUBLE");
    }

    /** A DATE written yyyy-mm-dd, as days since 1970-01-01. */
    public static int parseDate(byte[] b, int from, int to) {
        if (to - from == 10 && b[from + 4] == '-' && b[from + 7] == '-') {
            // By hand: LocalDate.parse's formatter costs more than the rest of a row.
            int year = digits(b, from, 4);
            int month = digits(b, from + 5, 2);
            int day = digits(b, from + 8, 2);
            // digits() is -1 for a non-digit: a valid calendar date for the year, not for month or day.
            if (year >= 0 && Dates.isValid(year, month, day)) {
                return (int) Dates.epochDay(year, month, day);
            }
        }
        throw new BadValueException(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)");
    }

    /** A TIMESTAMP written yyyy-mm-dd hh:mm[:ss[.ffffff]] (or a date alone, its midnight), as microseconds since 1970. */
    public static long parseTimestamp(String text) {
        try {
            return Timestamps.parse(text);
        } catch (DateTimeParseException e) {
            throw new BadValueException(SqlState.INVALID_DATETIME_FORMAT, "a TIMESTAMP (yyyy-mm-dd hh:mm:ss[.ffffff])");
        }
    }

    /** The number written by {@code count} digits at {@code from}; -1 if one is not a digit. */
    private static int digits(byte[] b, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            value = value * 10 + b[i] - '0';
        }
        return value;
    }

    /** A BOOLEAN: true, t, yes, y, 1 or false, f, no, n, 0, in any case. */
    public static boolean parseBoolean(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "t", "yes", "y", "1" -> true;
            case "false", "f", "no", "n", "0" -> false;
            default -> throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a BOOLEAN (true or false)");
        };
    }
}
