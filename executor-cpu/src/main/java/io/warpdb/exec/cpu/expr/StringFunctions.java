package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.expr.StringFunctionEvaluator.RowFunction;
import io.warpdb.exec.cpu.value.TextValues;
import java.util.Locale;

/** The per-row string functions: UPPER, LOWER, TRIM/LTRIM/RTRIM, SUBSTRING, CONCAT and the casts that produce strings. */
final class StringFunctions {
    private StringFunctions() {
    }

    static final RowFunction UPPER = (args, row) -> args[0].string(row).toUpperCase(Locale.ROOT);
    static final RowFunction LOWER = (args, row) -> args[0].string(row).toLowerCase(Locale.ROOT);
    static final RowFunction TRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), true, true);
    static final RowFunction LTRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), true, false);
    static final RowFunction RTRIM = (args, row) -> TextValues.trim(args[0].string(row), args[1].string(row), false, true);
    static final RowFunction CONCAT = (args, row) -> args[0].string(row).concat(args[1].string(row));

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
            return (args, row) -> TextValues.checkLength(TextValues.formatDouble(args[0].doubles()[row]), to);
        }
        return (args, row) -> TextValues.checkLength(TextValues.formatLong(args[0].longs()[row], from), to);
    }
}
