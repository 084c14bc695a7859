package io.warpdb.exec.gpu.testing;

import io.warpdb.core.batch.Batches;
import static org.junit.jupiter.api.Assertions.fail;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares query results as lists of rows (Java objects from {@link Batch#getObject}): as
 * multisets, or in order for ORDER BY. Doubles are equal within a relative 1e-9 (NaN equals NaN);
 * -0.0 equals 0.0 (SQL's equality: a group of either may show either); other values must be
 * equal. Failures show the first rows that differ.
 */
public final class ResultAssert {
    private static final double RELATIVE_TOLERANCE = 1e-9;
    private static final int SHOWN_ROWS = 5;

    private ResultAssert() {
    }

    /** The rows of the batches, in order (the batches stay open). */
    public static List<List<Object>> rows(List<Batch> batches) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch b : batches) {
            Batches.addRows(b, rows);
        }
        return rows;
    }

    /** Drains and closes the stream, returning its rows. */
    public static List<List<Object>> rows(BatchStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        try (stream) {
            Batch b;
            while ((b = stream.next()) != null) {
                try (Batch batch = b) {
                    rows.addAll(rows(List.of(batch)));
                }
            }
        }
        return rows;
    }

    /** Same rows, any order. */
    public static void assertSameRows(List<List<Object>> expected, List<List<Object>> actual, String context) {
        List<List<Object>> e = new ArrayList<>(expected);
        List<List<Object>> a = new ArrayList<>(actual);
        e.sort(ROW_ORDER);
        a.sort(ROW_ORDER);
        compare(e, a, context + " (rows sorted for a multiset comparison)");
    }

    /** Same rows in the same order. */
    public static void assertSameOrderedRows(List<List<Object>> expected, List<List<Object>> actual, String context) {
        compare(expected, actual, context);
    }

    private static void compare(List<List<Object>> expected, List<List<Object>> actual, String context) {
        int n = Math.min(expected.size(), actual.size());
        int first = -1;
        for (int i = 0; i < n && first < 0; i++) {
            if (!rowsEqual(expected.get(i), actual.get(i))) {
                first = i;
            }
        }
        if (first < 0 && expected.size() == actual.size()) {
            return;
        }
        int from = first < 0 ? n : first;
        StringBuilder msg = new StringBuilder(context).append(": expected ").append(expected.size())
                .append(" rows, got ").append(actual.size()).append("; first difference at row ").append(from);
        for (int i = from; i < from + SHOWN_ROWS && (i < expected.size() || i < actual.size()); i++) {
            msg.append("\n  row ").append(i).append(": expected ").append(i < expected.size() ? expected.get(i) : "-")
                    .append("  got ").append(i < actual.size() ? actual.get(i) : "-");
        }
        fail(msg.toString());
    }

    private static boolean rowsEqual(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!valuesEqual(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean valuesEqual(Object a, Object b) {
        a = withoutNegativeZero(a);
        b = withoutNegativeZero(b);
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Double x && b instanceof Double y) {
            if (x.isNaN() || y.isNaN() || x.isInfinite() || y.isInfinite()) {
                return x.equals(y) || (x.isNaN() && y.isNaN());
            }
            return Math.abs(x - y) <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return a.equals(b);
    }

    /** 0.0 for -0.0 (of a DOUBLE or a REAL), else the value itself. */
    private static Object withoutNegativeZero(Object v) {
        if (v instanceof Double d && d == 0.0) {
            return 0.0;
        }
        if (v instanceof Float f && f == 0.0f) {
            return 0.0f;
        }
        return v;
    }

    /** NULLs first, then values by their natural order, column by column. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final Comparator<List<Object>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            Object x = withoutNegativeZero(a.get(i));
            Object y = withoutNegativeZero(b.get(i));
            int c = x == null ? (y == null ? 0 : -1) : y == null ? 1 : ((Comparable) x).compareTo(y);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };
}
