package io.warpdb.exec.gpu.column;

import io.warpdb.core.types.Schema;
import java.util.List;

/** The columns of an intermediate result in device memory, all {@code rows} long; owns one reference to each. */
public record DeviceTable(Schema schema, int rows, List<DeviceColumn> columns) implements AutoCloseable {
    public DeviceTable {
        columns = List.copyOf(columns);
        for (DeviceColumn c : columns) {
            if (c.rows() != rows) {
                throw new IllegalArgumentException("column of " + c.rows() + " rows in a table of " + rows);
            }
        }
    }

    public DeviceColumn column(int i) {
        return columns.get(i);
    }

    public long bytes() {
        return columns.stream().mapToLong(DeviceColumn::bytes).sum();
    }

    /** Bytes its rows take ({@link DeviceColumn#dataBytes}). */
    public long dataBytes() {
        return columns.stream().mapToLong(DeviceColumn::dataBytes).sum();
    }

    /** Another table of the same columns, holding references of its own ({@link DeviceColumn#share}); each table is closed once. */
    public DeviceTable share() {
        return new DeviceTable(schema, rows, columns.stream().map(DeviceColumn::share).toList());
    }

    @Override
    public void close() {
        columns.forEach(DeviceColumn::close);
    }
}
