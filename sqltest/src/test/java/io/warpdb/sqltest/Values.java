package io.warpdb.sqltest;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Renders JDBC values as the text that expected results are written in (see README.md). */
public final class Values {
    public static final String NULL = "NULL";
    public static final String EMPTY = "(empty)";
    /** Decimal places of a rendered floating-point value. */
    public static final int DOUBLE_SCALE = 3;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private Values() {
    }

    /** A DOUBLE rendered with exactly three decimals, half-up on its shortest decimal form; -0 is 0. */
    public static String renderDouble(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        BigDecimal b = BigDecimal.valueOf(d).setScale(DOUBLE_SCALE, RoundingMode.HALF_UP);
        if (b.signum() == 0) {
            return BigDecimal.ZERO.setScale(DOUBLE_SCALE).toPlainString();
        }
        return b.toPlainString();
    }

    /** A DECIMAL rendered with its scale kept: {@code 1.50}, never {@code 1.5} or {@code 1.5E+0}. */
    public static String renderDecimal(BigDecimal d) {
        return d.toPlainString();
    }

    public static String renderString(String s) {
        return s.isEmpty() ? EMPTY : s;
    }

    /** Renders any Java value that a JDBC driver may return from getObject. */
    public static String renderObject(Object o) {
        if (o == null) {
            return NULL;
        }
        if (o instanceof String s) {
            return renderString(s);
        }
        if (o instanceof BigDecimal b) {
            return renderDecimal(b);
        }
        if (o instanceof Double || o instanceof Float) {
            return renderDouble(((Number) o).doubleValue());
        }
        if (o instanceof Boolean b) {
            return b ? "true" : "false";
        }
        if (o instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (o instanceof LocalDate d) {
            return d.toString();
        }
        return String.valueOf(o);
    }

    /** The type letter of a JDBC type: I, R, D, T, B, A (date), S (timestamp), or null for other types. */
    public static Character letterOf(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> 'I';
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> 'R';
            case Types.DECIMAL, Types.NUMERIC -> 'D';
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> 'T';
            case Types.BOOLEAN, Types.BIT -> 'B';
            case Types.DATE -> 'A';
            case Types.TIMESTAMP -> 'S';
            default -> null;
        };
    }

    /**
     * Renders column {@code col} (1-based) of the current row, driven by the column's JDBC type
     * in the metadata: integers through getLong, floating point through getDouble, DECIMAL
     * through getBigDecimal, strings through getString, dates through getObject(LocalDate) when
     * the driver has it, timestamps through getObject(LocalDateTime), anything else through getObject.
     */
    public static String render(ResultSet rs, ResultSetMetaData md, int col) throws SQLException {
        int type = md.getColumnType(col);
        switch (type) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
                Object o = rs.getObject(col);
                if (o == null) {
                    return NULL;
                }
                // BIGINT values beyond long (e.g. an oracle's HUGEINT) still print exactly.
                return o instanceof Number n && !(o instanceof BigDecimal) && !(o instanceof java.math.BigInteger)
                        ? Long.toString(n.longValue()) : renderObject(o);
            }
            case Types.FLOAT, Types.REAL, Types.DOUBLE -> {
                double d = rs.getDouble(col);
                return rs.wasNull() ? NULL : renderDouble(d);
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal b = rs.getBigDecimal(col);
                return b == null ? NULL : renderDecimal(b);
            }
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> {
                String s = rs.getString(col);
                return s == null ? NULL : renderString(s);
            }
            case Types.BOOLEAN, Types.BIT -> {
                boolean b = rs.getBoolean(col);
                return rs.wasNull() ? NULL : (b ? "true" : "false");
            }
            case Types.DATE -> {
                // JDBC 4.2 LocalDate is exact for every date (java.sql.Date is Julian before 1582).
                try {
                    LocalDate d = rs.getObject(col, LocalDate.class);
                    return d == null ? NULL : d.toString();
                } catch (SQLException | RuntimeException notSupported) {
                    return renderObject(rs.getObject(col));
                }
            }
            case Types.TIMESTAMP -> {
                LocalDateTime t = rs.getObject(col, LocalDateTime.class);
                return t == null ? NULL : renderTimestamp(t);
            }
            default -> {
                return renderObject(rs.getObject(col));
            }
        }
    }

    /** {@code YYYY-MM-DD HH:MM:SS}, then the fraction of a second without trailing zeros, as DuckDB and PostgreSQL write it. */
    public static String renderTimestamp(LocalDateTime t) {
        String text = t.toLocalDate() + " " + TIME.format(t.toLocalTime());
        if (t.getNano() == 0) {
            return text;
        }
        String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
        return text + "." + fraction;
    }

    /** Orders rows value by value (String order), shorter rows first on a common prefix. */
    public static final Comparator<List<String>> ROW_ORDER = (a, b) -> {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    /** Rows sorted for {@code rowsort}. */
    public static List<List<String>> rowSorted(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows);
        out.sort(ROW_ORDER);
        return out;
    }

    /** All values, sorted, one per row, for {@code valuesort}. */
    public static List<List<String>> valueSorted(List<List<String>> rows) {
        List<String> all = new ArrayList<>();
        rows.forEach(all::addAll);
        all.sort(Comparator.naturalOrder());
        return all.stream().map(List::of).toList();
    }
}
