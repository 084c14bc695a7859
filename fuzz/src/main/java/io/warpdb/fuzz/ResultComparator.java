package io.warpdb.fuzz;

import io.warpdb.fuzz.QueryResult.ResultColumn;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares two results, in order or as multisets, after normalising values: numbers by value
 * whatever their Java type or scale (2 = 2.0 = 2.00); a column that is DOUBLE in either result
 * within a relative tolerance; CHAR columns without their pad spaces; dates as dates; DuckDB's BC
 * dates inside strings ({@code 0007-01-01 (BC)}) as ISO-8601 years ({@code -0006-01-01}), as WarpDB writes them.
 */
public final class ResultComparator {
    /** Relative difference up to which two DOUBLE values are equal (sums may add in any order). */
    public static final double RELATIVE_TOLERANCE = 1e-9;
    /** Absolute difference up to which two DOUBLE values near zero are equal. */
    public static final double ABSOLUTE_TOLERANCE = 1e-9;
    /** Significant digits of DOUBLE values when rows are sorted for a multiset comparison. */
    private static final MathContext SORT_PRECISION = new MathContext(10);
    private static final Pattern BC_DATE = Pattern.compile("(\\d{4,})(-\\d\\d-\\d\\d) \\(BC\\)");

    private final boolean[] approximate;
    private final boolean[] padded;

    private ResultComparator(QueryResult a, QueryResult b) {
        int width = a.width();
        approximate = new boolean[width];
        padded = new boolean[width];
        for (int c = 0; c < width; c++) {
            approximate[c] = isApproximate(a.columns().get(c)) || isApproximate(b.columns().get(c));
            padded[c] = a.columns().get(c).isChar() || b.columns().get(c).isChar();
        }
    }

    /**
     * Null when {@code actual} equals {@code expected}, else the first difference in words.
     * {@code ordered}: the rows must come in the same order.
     */
    public static String compare(QueryResult expected, QueryResult actual, boolean ordered) {
        if (expected.width() != actual.width()) {
            return "expected " + expected.width() + " columns but got " + actual.width();
        }
        ResultComparator comparator = new ResultComparator(expected, actual);
        List<List<Object>> want = comparator.normalise(expected.rows());
        List<List<Object>> got = comparator.normalise(actual.rows());
        if (!ordered) {
            want.sort(comparator.rowOrder());
            got.sort(comparator.rowOrder());
        }
        for (int r = 0; r < Math.min(want.size(), got.size()); r++) {
            if (!comparator.sameRow(want.get(r), got.get(r))) {
                return (ordered ? "row " + (r + 1) : "sorted row " + (r + 1)) + ": expected " + QueryResult.show(want.get(r))
                        + " but got " + QueryResult.show(got.get(r));
            }
        }
        if (want.size() != got.size()) {
            List<Object> extra = want.size() > got.size() ? want.get(got.size()) : got.get(want.size());
            return "expected " + want.size() + " rows but got " + got.size() + "; first row only in the "
                    + (want.size() > got.size() ? "expected" : "actual") + " result: " + QueryResult.show(extra);
        }
        return null;
    }

    private static boolean isApproximate(ResultColumn c) {
        return c.jdbcType() == Types.DOUBLE || c.jdbcType() == Types.FLOAT || c.jdbcType() == Types.REAL;
    }

    private List<List<Object>> normalise(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<Object> n = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                n.add(normalise(row.get(c), c));
            }
            out.add(n);
        }
        return out;
    }

    /** Numbers become Double (approximate columns) or BigDecimal; CHAR values lose trailing spaces. */
    private Object normalise(Object v, int column) {
        if (v instanceof Number n) {
            if (approximate[column]) {
                double d = n.doubleValue();
                return d == 0 ? 0.0 : d;
            }
            return exact(n);
        }
        if (v instanceof String s) {
            String text = isoYears(s);
            return padded[column] ? text.stripTrailing() : text;
        }
        return v;
    }

    /** DuckDB's {@code 0007-01-01 (BC)}, anywhere in a string, as ISO-8601 (WarpDB's) writes it: {@code -0006-01-01}. */
    static String isoYears(String s) {
        if (!s.contains(" (BC)")) {
            return s;
        }
        Matcher m = BC_DATE.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            long isoYear = 1 - Long.parseLong(m.group(1));
            String year = String.format("%04d", Math.abs(isoYear));
            m.appendReplacement(out, (isoYear < 0 ? "-" : "") + year + m.group(2));
        }
        m.appendTail(out);
        return out.toString();
    }

    static BigDecimal exact(Number n) {
        if (n instanceof BigDecimal b) {
            return b;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (n instanceof Double || n instanceof Float) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return BigDecimal.valueOf(n.longValue());
    }

    private boolean sameRow(List<Object> a, List<Object> b) {
        for (int c = 0; c < a.size(); c++) {
            if (!sameValue(a.get(c), b.get(c))) {
                return false;
            }
        }
        return true;
    }

    /** Whether two normalised values are equal (DOUBLE values within the tolerance). */
    static boolean sameValue(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Double x && b instanceof Double y) {
            if (x.equals(y) || x.doubleValue() == y.doubleValue()) {
                return true;
            }
            double diff = Math.abs(x - y);
            return diff <= ABSOLUTE_TOLERANCE || diff <= RELATIVE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
        }
        if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
            return x.compareTo(y) == 0;
        }
        return a.equals(b);
    }

    /** A total order on normalised rows: NULLs first, DOUBLE values by their leading digits. */
    private Comparator<List<Object>> rowOrder() {
        return (a, b) -> {
            for (int c = 0; c < a.size(); c++) {
                int cmp = compareValues(a.get(c), b.get(c));
                if (cmp != 0) {
                    return cmp;
                }
            }
            return 0;
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareValues(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(sortKey(x), sortKey(y));
        }
        if (a.getClass() != b.getClass()) {
            return a.getClass().getName().compareTo(b.getClass().getName());
        }
        return ((Comparable) a).compareTo(b);
    }

    private static double sortKey(double d) {
        return Double.isFinite(d) ? new BigDecimal(d).round(SORT_PRECISION).doubleValue() : d;
    }
}
