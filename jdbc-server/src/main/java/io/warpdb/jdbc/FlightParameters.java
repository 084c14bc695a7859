package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/**
 * The parameter values a Flight SQL client binds, one row per execution, read from the record
 * batches it puts, as the JDBC objects {@link io.warpdb.sql.Session#execute} takes: Integer,
 * Long, Double, BigDecimal, String, Boolean, java.sql.Date or null.
 */
final class FlightParameters {
    private FlightParameters() {
    }

    static List<List<Object>> rows(FlightStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        while (stream.next()) {
            VectorSchemaRoot root = stream.getRoot();
            for (int r = 0; r < root.getRowCount(); r++) {
                List<Object> values = new ArrayList<>(root.getFieldVectors().size());
                for (int c = 0; c < root.getFieldVectors().size(); c++) {
                    values.add(value(root.getVector(c), c, r));
                }
                rows.add(values);
            }
        }
        return rows;
    }

    private static Object value(FieldVector v, int column, int row) {
        if (v.isNull(row)) {
            return null;
        }
        if (v instanceof DateDayVector days) {
            return java.sql.Date.valueOf(LocalDate.ofEpochDay(days.get(row)));
        }
        Object o = v.getObject(row);
        if (o instanceof Text text) {
            return text.toString();
        }
        if (o instanceof Byte || o instanceof Short || o instanceof Integer) {
            return ((Number) o).intValue();
        }
        if (o instanceof Float || o instanceof Double) {
            return ((Number) o).doubleValue();
        }
        if (o instanceof Long || o instanceof BigDecimal || o instanceof Boolean) {
            return o;
        }
        if (o instanceof LocalDateTime time) {
            return java.sql.Date.valueOf(time.toLocalDate());
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                "parameter " + (column + 1) + " has Arrow type " + v.getField().getType() + ", which WarpDB does not support");
    }
}
