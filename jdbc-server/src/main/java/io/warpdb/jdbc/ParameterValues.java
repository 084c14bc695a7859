package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.value.Timestamps;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * Converts the parameter values a client bound with {@code PreparedStatement.setXxx} into the
 * JDBC objects {@link io.warpdb.sql.Session#execute} takes: Integer, Long, Double, BigDecimal,
 * String, Boolean, java.sql.Date, LocalDateTime (a timestamp) or null.
 */
final class ParameterValues {
    private ParameterValues() {
    }

    static List<Object> toJdbc(List<TypedValue> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(toJdbc(i, values.get(i)));
        }
        return out;
    }

    private static Object toJdbc(int index, TypedValue value) {
        if (value == null) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "parameter " + (index + 1) + " was not set");
        }
        Object local = value.toLocal();
        if (local == null) {
            return null;
        }
        if (value.type == ColumnMetaData.Rep.JAVA_SQL_DATE) {
            // The client sent the day number of its own calendar date; keep that date, whatever the zones.
            return java.sql.Date.valueOf(LocalDate.ofEpochDay(((Number) local).longValue()));
        }
        if (value.type == ColumnMetaData.Rep.JAVA_SQL_TIMESTAMP) {
            // Milliseconds of the client's wall-clock time read as UTC; keep that wall-clock time.
            return Timestamps.toLocalDateTime(((Number) local).longValue() * 1000);
        }
        if (local instanceof Byte || local instanceof Short || local instanceof Integer) {
            return ((Number) local).intValue();
        }
        if (local instanceof Float || local instanceof Double) {
            return ((Number) local).doubleValue();
        }
        if (local instanceof Long || local instanceof BigDecimal || local instanceof String || local instanceof Boolean) {
            return local;
        }
        if (local instanceof Character c) {
            return c.toString();
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                "parameter " + (index + 1) + " has type " + value.type + ", which WarpDB does not support");
    }
}
