package io.warpdb.tpch;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compares a query's answer with the reference answer. Exact values must be equal: integers and
 * decimals numerically, whatever their Java type or scale (2.0 = 2.00 = 2L); strings after
 * dropping trailing spaces (CHAR padding); dates as dates. A value that is a double on either
 * side matches within {@link #RELATIVE_TOLERANCE}.
 * <p>
 * Row order is checked only on the ORDER BY columns: the answer must list the same sort keys
 * in the same sequence as the reference, and rows that tie on the keys (which any order may
 * list) are compared as multisets. Without ORDER BY all rows are one multiset. When a LIMIT may
 * have cut the answer inside its last group of ties, which rows of that group made the cut is
 * not determined, so only its sort keys are compared.
 */
public final class AnswerChecker {
    public static final double RELATIVE_TOLERANCE = 1e-9;

    /** Whether an answer matches, and if not, its first difference in words. */
    public record Verdict(boolean ok, String difference) {
        public static final Verdict OK = new Verdict(true, null);

        public static Verdict fail(String difference) {
            return new Verdict(false, difference);
        }
    }

    private AnswerChecker() {
    }

    /**
     * Checks {@code actual} against {@code expected}; {@code orderBy} names the result columns of
     * the query's top-level ORDER BY (empty when it has none).
     */
    public static Verdict check(ResultTable expected, ResultTable actual, List<String> orderBy) {
        return check(expected, actual, orderBy.stream().mapToInt(name -> columnIndex(expected, name)).toArray(), false);
    }

    /**
     * Checks {@code actual} against {@code expected}; {@code keys} are the positions of the result
     * columns the rows are sorted by, most significant first (empty: no order); {@code limitCut}
     * says that a LIMIT may have cut the answer, so that its last group of ties may hold any of
     * the tied rows.
     */
    public static Verdict check(ResultTable expected, ResultTable actual, int[] keys, boolean limitCut) {
        if (expected.columns().size() != actual.columns().size()) {
            return Verdict.fail("expected " + expected.columns().size() + " columns " + expected.columns() + " but got "
                    + actual.columns().size() + " " + actual.columns());
        }
        List<List<Object>> want = expected.rows();
        List<List<Object>> got = actual.rows();
        Comparator<List<Object>> canonical = canonicalOrder(expected, actual);
        if (want.size() != got.size()) {
            return Verdict.fail("expected " + want.size() + " rows but got " + got.size() + "; "
                    + firstDifference(expected.columns(), want, got, canonical));
        }
        int group = 0;
        for (int r = 0; r < want.size(); r++) {
            for (int k : keys) {
                if (!same(want.get(r).get(k), got.get(r).get(k))) {
                    return Verdict.fail("row " + (r + 1) + " is out of order or differs: column " + expected.columns().get(k)
                            + " expected " + show(want.get(r).get(k)) + " but was " + show(got.get(r).get(k)));
                }
            }
            boolean groupEnds = r + 1 == want.size() || (keys.length > 0 && !sameKeys(want.get(r), want.get(r + 1), keys));
            boolean cutGroup = limitCut && keys.length > 0 && r + 1 == want.size();
            if (groupEnds && !cutGroup) {
                String difference = firstDifference(expected.columns(), want.subList(group, r + 1), got.subList(group, r + 1),
                        canonical);
                if (difference != null) {
                    return Verdict.fail(difference);
                }
                group = r + 1;
            }
        }
        return Verdict.OK;
    }

    private static int columnIndex(ResultTable table, String name) {
        for (int c = 0; c < table.columns().size(); c++) {
            if (table.columns().get(c).equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("ORDER BY column " + name + " is not among the result columns " + table.columns());
    }

    private static boolean sameKeys(List<Object> a, List<Object> b, int[] keys) {
        for (int k : keys) {
            if (!same(a.get(k), b.get(k))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first row that differs once both sides are sorted canonically, or null when they
     * hold the same rows.
     */
    private static String firstDifference(List<String> columns, List<List<Object>> want, List<List<Object>> got,
            Comparator<List<Object>> canonical) {
        List<List<Object>> a = new ArrayList<>(want);
        List<List<Object>> b = new ArrayList<>(got);
        a.sort(canonical);
        b.sort(canonical);
        for (int r = 0; r < Math.min(a.size(), b.size()); r++) {
            for (int c = 0; c < columns.size(); c++) {
                if (!same(a.get(r).get(c), b.get(r).get(c))) {
                    return "column " + columns.get(c) + " expected " + show(a.get(r).get(c)) + " but was " + show(b.get(r).get(c))
                            + " in row " + showRow(b.get(r)) + " (expected row " + showRow(a.get(r)) + ")";
                }
            }
        }
        if (a.size() > b.size()) {
            return "missing row " + showRow(a.get(b.size()));
        }
        if (b.size() > a.size()) {
            return "extra row " + showRow(b.get(a.size()));
        }
        return null;
    }

    /** True when the two values count as equal under the rules above. */
    static boolean same(Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        if (expected instanceof Number e && actual instanceof Number a) {
            return isApproximate(e) || isApproximate(a) ? close(e.doubleValue(), a.doubleValue())
                    : decimal(e).compareTo(decimal(a)) == 0;
        }
        if (expected instanceof String e && actual instanceof String a) {
            return unpad(e).equals(unpad(a));
        }
        LocalDate e = date(expected);
        LocalDate a = date(actual);
        return e != null && a != null ? e.equals(a) : expected.equals(actual);
    }

    private static boolean close(double expected, double actual) {
        if (expected == actual || Double.isNaN(expected) && Double.isNaN(actual)) {
            return true;
        }
        return Math.abs(expected - actual) <= RELATIVE_TOLERANCE * Math.max(Math.abs(expected), Math.abs(actual));
    }

    /**
     * Sorts rows so that equal multisets line up: exact columns first, then columns holding
     * doubles on either side, so that rounding noise in a double cannot reorder rows that
     * differ elsewhere.
     */
    private static Comparator<List<Object>> canonicalOrder(ResultTable expected, ResultTable actual) {
        List<Integer> order = new ArrayList<>();
        List<Integer> approximate = new ArrayList<>();
        for (int c = 0; c < expected.columns().size(); c++) {
            (holdsDoubles(expected, c) || holdsDoubles(actual, c) ? approximate : order).add(c);
        }
        order.addAll(approximate);
        return (x, y) -> {
            for (int c : order) {
                int cmp = compareValues(x.get(c), y.get(c));
                if (cmp != 0) {
                    return cmp;
                }
            }
            return 0;
        };
    }

    private static boolean holdsDoubles(ResultTable table, int column) {
        return table.rows().stream().anyMatch(row -> column < row.size() && row.get(column) instanceof Number n && isApproximate(n));
    }

    /** A total order within one side's column (whose values share a type); across types, by rank. */
    private static int compareValues(Object x, Object y) {
        int rank = Integer.compare(rank(x), rank(y));
        if (rank != 0) {
            return rank;
        }
        if (x instanceof Number a && y instanceof Number b) {
            return isApproximate(a) || isApproximate(b) ? Double.compare(a.doubleValue(), b.doubleValue())
                    : decimal(a).compareTo(decimal(b));
        }
        if (x instanceof String a && y instanceof String b) {
            return unpad(a).compareTo(unpad(b));
        }
        if (date(x) != null) {
            return date(x).compareTo(date(y));
        }
        return x == null ? 0 : x.toString().compareTo(y.toString());
    }

    private static int rank(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number) {
            return 1;
        }
        if (v instanceof String) {
            return 2;
        }
        return date(v) != null ? 3 : 4;
    }

    private static boolean isApproximate(Number n) {
        return n instanceof Double || n instanceof Float;
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        return BigDecimal.valueOf(n.longValue());
    }

    private static LocalDate date(Object v) {
        if (v instanceof LocalDate d) {
            return d;
        }
        return v instanceof java.sql.Date d ? d.toLocalDate() : null;
    }

    private static String unpad(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static String show(Object v) {
        if (v == null) {
            return "NULL";
        }
        String text = v instanceof String s ? "'" + s + "'" : v.toString();
        return text + " (" + v.getClass().getSimpleName() + ")";
    }

    private static String showRow(List<Object> row) {
        return row.stream().map(v -> v instanceof String s ? "'" + s + "'" : String.valueOf(v))
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
