package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.expr.StringFunctionEvaluator.RowFunction;
import io.warpdb.exec.cpu.value.TextValues;
import java.util.Locale;

/**
 * The per-row string functions: UPPER, LOWER, TRIM/LTRIM/RTRIM, SUBSTRING, CONCAT, REPLACE,
 * LEFT/RIGHT, LPAD/RPAD, SPLIT_PART, the casts that produce strings, and STRPOS and STARTS_WITH
 * (a number and a truth value). Positions and lengths count characters (code points), as DuckDB's do.
 */
final class StringFunctions {
    private StringFunctions() {
    }

    static final RowFunction UPPER = (args, row) -> args[0].string(row).toUpperCase(Locale.ROOT);
    static final RowFunction LOWER = (args, row) -> args[0].string(row).toLowerCase(Locale.ROOT);
    static final RowFunction TRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), true, true);
    static final RowFunction LTRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), true, false);
    static final RowFunction RTRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), false, true);
    static final RowFunction CONCAT = (args, row) -> args[0].string(row).concat(args[1].string(row));
    /** REPLACE(s, from, to); an empty {@code from} replaces nothing. */
    static final RowFunction REPLACE = (args, row) -> {
        String from = args[1].string(row);
        return from.isEmpty() ? args[0].string(row) : args[0].string(row).replace(from, args[2].string(row));
    };
    /** LEFT(s, n); n is a BIGINT column. */
    static final RowFunction LEFT = (args, row) -> {
        String s = args[0].string(row);
        return prefix(s, keptLength(TextValues.length(s), args[1].longs()[row]));
    };
    /** RIGHT(s, n); n is a BIGINT column. */
    static final RowFunction RIGHT = (args, row) -> {
        String s = args[0].string(row);
        int length = TextValues.length(s);
        return s.substring(s.offsetByCodePoints(0, length - keptLength(length, args[1].longs()[row])));
    };
    static final RowFunction LPAD = (args, row) -> pad(args[0].string(row), args[1].longs()[row], args[2].string(row), true);
    static final RowFunction RPAD = (args, row) -> pad(args[0].string(row), args[1].longs()[row], args[2].string(row), false);
    /** SPLIT_PART(s, delimiter, index); index is a BIGINT column. */
    static final RowFunction SPLIT_PART = (args, row) -> splitPart(args[0].string(row), args[1].string(row), args[2].longs()[row]);
    /** STRPOS(s, sub): the 1-based character position of sub's first occurrence, 0 when absent. */
    static final StringMeasureEvaluator.RowMeasure STRPOS = (args, row) -> {
        String s = args[0].string(row);
        int at = s.indexOf(args[1].string(row));
        return at < 0 ? 0 : s.codePointCount(0, at) + 1;
    };
    static final StringMeasureEvaluator.RowMeasure STARTS_WITH = (args, row) ->
            args[0].string(row).startsWith(args[1].string(row)) ? 1 : 0;

    /** How many of {@code length} characters LEFT/RIGHT keep for n: n of them, or all but -n. */
    private static int keptLength(int length, long n) {
        return (int) (n >= 0 ? Math.min(n, length) : Math.max(length + n, 0));
    }

    /** The first {@code n} characters of s (n at most s's length). */
    private static String prefix(String s, int n) {
        return s.substring(0, s.offsetByCodePoints(0, n));
    }

    /** s cut to {@code length} characters, or padded to it with repeats of {@code fill} on the left or right. */
    static String pad(String s, long length, String fill, boolean left) {
        int have = TextValues.length(s);
        if (length <= have) {
            return prefix(s, (int) Math.max(length, 0));
        }
        if (fill.isEmpty()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "insufficient padding in " + (left ? "LPAD" : "RPAD")
                    + ": the fill string is empty");
        }
        if (length > Integer.MAX_VALUE / 2) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "padded length " + length + " is too large");
        }
        int missing = (int) length - have;
        int[] fillChars = fill.codePoints().toArray();
        StringBuilder padding = new StringBuilder(missing);
        for (int i = 0; i < missing; i++) {
            padding.appendCodePoint(fillChars[i % fillChars.length]);
        }
        return left ? padding + s : s + padding;
    }

    /** The index-th part of s split at each delimiter (1-based, negative from the end); '' when there is none. */
    static String splitPart(String s, String delimiter, long index) {
        String[] parts = delimiter.isEmpty() ? s.codePoints().mapToObj(Character::toString).toArray(String[]::new)
                : s.split(java.util.regex.Pattern.quote(delimiter), -1);
        long at = index > 0 ? index - 1 : parts.length + index;
        return index == 0 || at < 0 || at >= parts.length ? "" : parts[(int) at];
    }

    /** SUBSTRING(s, start[, length]): start and length are BIGINT columns. */
    static RowFunction substring(boolean hasLength) {
        return hasLength ? (args, row) -> substring(args[0].string(row), args[1].longs()[row], args[2].longs()[row])
                : (args, row) -> substring(args[0].string(row), args[1].longs()[row], Long.MAX_VALUE);
    }

    /**
     * SQL SUBSTRING: the characters at 1-based positions [start, start + length), clipped to the
     * string, so a start before 1 shortens the result.
     */
    static String substring(String s, long start, long length) {
        if (length < 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "negative substring length not allowed");
        }
        long end = start + length;
        if (end < start) {
            end = Long.MAX_VALUE; // overflowed: runs to the end of the string
        }
        long from = Math.max(start, 1);
        long to = Math.min(end, TextValues.length(s) + 1L);
        if (to <= from) {
            return "";
        }
        return s.substring(s.offsetByCodePoints(0, (int) from - 1), s.offsetByCodePoints(0, (int) to - 1));
    }

    /** CAST of a string to VARCHAR/CHAR: CHAR drops trailing spaces (the length is checked by the caller). */
    static RowFunction castString(DataType to) {
        return to.kind() == TypeKind.CHAR ? (args, row) -> TextValues.trimTrailingSpaces(args[0].string(row))
                : (args, row) -> args[0].string(row);
    }

    /** CAST of a non-string value to VARCHAR/CHAR(n), 22001 when the text is longer than n. */
    static RowFunction format(DataType from, DataType to) {
        if (from.kind() == TypeKind.DOUBLE) {
            return (args, row) -> TextValues.checkLength(TextValues.formatDouble(args[0].doubles()[row], from), to);
        }
        if (from.isWideDecimal()) {
            return (args, row) -> TextValues.checkLength(TextValues.formatWide(args[0].highs()[row], args[0].longs()[row], from), to);
        }
        return (args, row) -> TextValues.checkLength(TextValues.formatLong(args[0].longs()[row], from), to);
    }
}
