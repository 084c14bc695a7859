package io.warpdb.exec.cpu.value;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.core.value.Timestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Text forms of values for CAST: parsing strings into normalized values (22P02 for text that
 * does not parse, 22003 for numbers out of range) and formatting values as strings.
 */
public final class TextValues {
    private static final Pattern DOUBLE_TEXT = Pattern.compile("[+-]?((\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|Infinity|NaN)");
    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?\\d+");

    private TextValues() {
    }

    /** Parses INTEGER, BIGINT, DECIMAL, DATE (days), TIMESTAMP (microseconds) or BOOLEAN (0/1) text into the type's long form. */
    public static long parseLong(String text, DataType type) {
        String s = trimSpaces(text);
        return switch (type.kind()) {
            case INTEGER, BIGINT -> Decimals.checkFits(parseInteger(s, text, type), type);
            case DECIMAL -> Decimals.checkDeclared(parseDecimal(s, text, type), type);
            case DATE -> parseDate(s, text, type);
            case TIMESTAMP -> parseTimestamp(s, text, type);
            case BOOLEAN -> parseBoolean(s, text, type) ? 1 : 0;
            default -> throw new IllegalArgumentException("not a long-valued type: " + type);
        };
    }

    public static double parseDouble(String text, DataType type) {
        String s = trimSpaces(text);
        // Checked first because Double.parseDouble also accepts Java forms such as "1d" and "0x1p3".
        if (!DOUBLE_TEXT.matcher(s).matches()) {
            throw invalid(text, type);
        }
        return type.convertToDeclared(Double.parseDouble(s));
    }

    private static long parseInteger(String s, String text, DataType type) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            if (INTEGER_TEXT.matcher(s).matches()) {
                throw outOfRange(text, type);
            }
            throw invalid(text, type);
        }
    }

    /** Parses a wide DECIMAL's text into its unscaled value, rounded HALF_UP to the scale; 22003 beyond the precision. */
    public static BigInteger parseWideDecimal(String text, DataType type) {
        String s = trimSpaces(text);
        BigDecimal value;
        try {
            value = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw invalid(text, type);
        }
        BigInteger unscaled = value.setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
            throw outOfRange(text, type);
        }
        return unscaled;
    }

    /** A wide DECIMAL's value as text, every fraction digit of its scale written. */
    public static String formatWide(long high, long low, DataType type) {
        return decimalText(Int128.toBigDecimal(high, low, type.scale()), type);
    }

    private static long parseDecimal(String s, String text, DataType type) {
        BigDecimal value;
        try {
            value = new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw invalid(text, type);
        }
        BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.unscaledValue().bitLength() > 63) {
            throw outOfRange(text, type);
        }
        return scaled.unscaledValue().longValue();
    }

    private static long parseDate(String s, String text, DataType type) {
        try {
            return Dates.checkDate(Dates.parse(s));
        } catch (DateTimeParseException e) {
            throw invalid(text, type);
        }
    }

    private static long parseTimestamp(String s, String text, DataType type) {
        try {
            return Timestamps.parse(s);
        } catch (DateTimeParseException e) {
            throw invalid(text, type);
        }
    }

    private static boolean parseBoolean(String s, String text, DataType type) {
        switch (s.toLowerCase(Locale.ROOT)) {
            case "true", "t", "1":
                return true;
            case "false", "f", "0":
                return false;
            default:
                throw invalid(text, type);
        }
    }

    /** Formats a value given in its normalized long form (see {@link #parseLong}). */
    public static String formatLong(long v, DataType type) {
        return switch (type.kind()) {
            case INTEGER, BIGINT -> Long.toString(v);
            case DECIMAL -> decimalText(BigDecimal.valueOf(v, type.scale()), type);
            case DATE -> Dates.format(v);
            case TIMESTAMP -> Timestamps.format(v);
            case INTERVAL -> Timestamps.formatInterval(v);
            case BOOLEAN -> v != 0 ? "TRUE" : "FALSE";
            default -> throw new IllegalArgumentException("not a long-valued type: " + type);
        };
    }

    /** A DECIMAL's digits as DuckDB writes them: a type of no integer digits (DECIMAL(3,3)) has no 0 before the point (-.001). */
    private static String decimalText(BigDecimal v, DataType type) {
        String plain = v.toPlainString();
        if (type.precision() != type.scale()) {
            return plain;
        }
        return plain.startsWith("-0.") ? "-" + plain.substring(2) : plain.startsWith("0.") ? plain.substring(1) : plain;
    }

    /** A DOUBLE as Java writes it; a REAL with the digits its float32 needs (0.1, not 0.10000000149011612). */
    public static String formatDouble(double v, DataType type) {
        return type.isReal() ? Float.toString((float) v) : Double.toString(v);
    }

    /** Removes leading and trailing spaces (only U+0020, as SQL TRIM does). */
    public static String trimSpaces(String s) {
        return trim(s, " ", true, true);
    }

    /** The string without trailing spaces, as CHAR values are kept. */
    public static String trimTrailingSpaces(String s) {
        return trim(s, " ", false, true);
    }

    /** SQL TRIM: drops the characters in {@code chars} from the start and/or the end. */
    public static String trim(String s, String chars, boolean leading, boolean trailing) {
        int start = 0;
        int end = s.length();
        while (leading && start < end && chars.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (trailing && end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    /** Number of characters (code points), as CHAR_LENGTH and length limits count them. */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** Checks a CAST result against VARCHAR(n)/CHAR(n), n > 0: 22001 when longer. */
    public static String checkLength(String s, DataType type) {
        if (type.precision() > 0 && length(s) > type.precision()) {
            throw new WarpException(SqlState.STRING_DATA_RIGHT_TRUNCATION,
                    "value too long for type " + type.sqlName() + ": '" + s + "'");
        }
        return s;
    }

    private static WarpException outOfRange(String text, DataType type) {
        return new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value '" + text + "' is out of range for " + type.sqlName());
    }

    private static WarpException invalid(String text, DataType type) {
        return new WarpException(SqlState.INVALID_TEXT_REPRESENTATION,
                "invalid input syntax for type " + type.sqlName() + ": '" + text + "'");
    }
}
