package io.warpdb.fuzz;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The rows a query returned, with the column types the engine reported. Values are read by
 * JDBC type: integers and decimals as Long/BigInteger/BigDecimal, DOUBLE as Double, DATE as
 * LocalDate, strings, booleans; NULL as null.
 */
public record QueryResult(List<ResultColumn> columns, List<List<Object>> rows) {
    /** A result column: its JDBC type, the engine's type name, and the scale of a DECIMAL. */
    public record ResultColumn(String name, int jdbcType, String typeName, int scale) {
        public boolean isChar() {
            return jdbcType == Types.CHAR || typeName.toUpperCase(Locale.ROOT).startsWith("CHAR");
        }
    }

    public static QueryResult read(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<ResultColumn> columns = new ArrayList<>();
        for (int c = 1; c <= md.getColumnCount(); c++) {
            columns.add(new ResultColumn(md.getColumnLabel(c), md.getColumnType(c), String.valueOf(md.getColumnTypeName(c)),
                    md.getScale(c)));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns.size());
            for (int c = 1; c <= columns.size(); c++) {
                row.add(value(rs, c, columns.get(c - 1).jdbcType()));
            }
            rows.add(row);
        }
        return new QueryResult(columns, rows);
    }

    private static Object value(ResultSet rs, int c, int jdbcType) throws SQLException {
        switch (jdbcType) {
            case Types.DOUBLE, Types.FLOAT, Types.REAL -> {
                double d = rs.getDouble(c);
                return rs.wasNull() ? null : d;
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                return rs.getBigDecimal(c);
            }
            case Types.DATE -> {
                // JDBC 4.2's LocalDate is exact for every date (java.sql.Date is Julian before 1582). WarpDB's
                // driver cannot give it for some columns (constant dates), so fall back to java.sql.Date.
                try {
                    return rs.getObject(c, LocalDate.class);
                } catch (SQLException notSupported) {
                    java.sql.Date d = rs.getDate(c);
                    return d == null ? null : d.toLocalDate();
                }
            }
            default -> {
                Object o = rs.getObject(c);
                return o instanceof java.sql.Date d ? d.toLocalDate() : o;
            }
        }
    }

    public int width() {
        return columns.size();
    }

    /** The result in a few words: the row count and the first rows. */
    public String summary(int maxRows) {
        String shown = rows.stream().limit(maxRows).map(QueryResult::show).collect(Collectors.joining(" "));
        return rows.size() + (rows.size() == 1 ? " row" : " rows") + (rows.isEmpty() ? "" : ": " + shown)
                + (rows.size() > maxRows ? " ..." : "");
    }

    static String show(List<Object> row) {
        return row.stream().map(QueryResult::show).collect(Collectors.joining(", ", "(", ")"));
    }

    static String show(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s + "'";
        }
        return v instanceof BigDecimal b ? b.toPlainString() : v.toString();
    }
}
