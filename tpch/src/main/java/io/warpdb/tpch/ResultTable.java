package io.warpdb.tpch;

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
}
