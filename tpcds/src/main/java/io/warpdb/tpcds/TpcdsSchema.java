package io.warpdb.tpcds;

import io.trino.tpcds.column.Column;
import io.trino.tpcds.column.ColumnType;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.Arrays;
import java.util.List;

/**
 * The 24 TPC-DS tables (TPC-DS 2.x, clause 2; the generator's {@code dbgen_version} aside) with
 * the generator's column types: surrogate keys (identifiers) BIGINT, counts and numbers INTEGER,
 * money DECIMAL(7,2) and the like, dates DATE. CHAR(n) and VARCHAR(n) columns are both VARCHAR(n),
 * so that padding plays no part in comparisons with DuckDB. Any column may be NULL: the generator
 * leaves a share of most tables' non-key values empty.
 */
public final class TpcdsSchema {
    /** One table: its name, WarpDB schema and the generator's table. */
    public record Table(String name, Schema schema, io.trino.tpcds.Table generator) {
    }

    private static final List<Table> TABLES = io.trino.tpcds.Table.getBaseTables().stream()
            .filter(t -> t != io.trino.tpcds.Table.DBGEN_VERSION)
            .map(t -> new Table(t.getName(), Schema.of(Arrays.stream(t.getColumns()).map(TpcdsSchema::field).toArray(Field[]::new)), t))
            .toList();

    private TpcdsSchema() {
    }

    /** The 24 tables, in the generator's (alphabetical) order. */
    public static List<Table> tables() {
        return TABLES;
    }

    /** The table of this name (case-insensitive). */
    public static Table table(String name) {
        return TABLES.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no TPC-DS table " + name));
    }

    private static Field field(Column column) {
        return new Field(column.getName(), type(column));
    }

    static DataType type(Column column) {
        ColumnType type = column.getType();
        return switch (type.getBase()) {
            case IDENTIFIER -> DataType.BIGINT;
            case INTEGER -> DataType.INTEGER;
            case DATE -> DataType.DATE;
            case DECIMAL -> DataType.decimal(type.getPrecision().orElseThrow(), type.getScale().orElseThrow());
            case CHAR, VARCHAR -> DataType.varchar(type.getPrecision().orElseThrow());
            case TIME -> throw new IllegalArgumentException(column.getTable().getName() + "." + column.getName()
                    + " is a TIME column, which only dbgen_version has");
        };
    }
}
