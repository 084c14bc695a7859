package io.warpdb.tpch;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A query's answer as plain Java values, as JDBC's getObject returns them (Integer, Long,
 * BigInteger, BigDecimal, Double, String, java.sql.Date or LocalDate, null), in result order.
 */
public record ResultTable(List<String> columns, List<List<Object>> rows) {
    public ResultTable {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows); // the rows themselves may hold nulls, so they stay as given
    }

    public int rowCount() {
        return rows.size();
    }

    /** Every row of a JDBC result set, read with getObject. */
    public static ResultTable of(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int c = 1; c <= meta.getColumnCount(); c++) {
            columns.add(meta.getColumnLabel(c));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] row = new Object[columns.size()];
            for (int c = 0; c < row.length; c++) {
                row[c] = rs.getObject(c + 1);
            }
            rows.add(Arrays.asList(row));
        }
        return new ResultTable(columns, rows);
    }
}
