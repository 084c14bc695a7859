package io.warpdb.sql;

import io.warpdb.storage.Catalog;
import java.util.List;

/**
 * Tables' PRIMARY KEYs, kept as catalog properties ({@code primarykey.<TABLE>}) as column
 * defaults are, so they are durable and versioned with the tables. The stored value is the key's
 * column names in key order, each followed by {@link #SEPARATOR}. Keys are not enforced: the
 * planner relies on them as declared (a table's rows are unique on its key).
 */
public final class PrimaryKeys {
    private static final String PREFIX = "primarykey.";
    private static final String SEPARATOR = "\u0001";

    private PrimaryKeys() {
    }

    /** The PRIMARY KEY columns of {@code table} in key order; empty when it declares none. */
    public static List<String> of(java.util.Map<String, String> properties, String table) {
        String value = properties.get(TableProperties.key(PREFIX, table));
        return value == null ? List.of() : List.of(value.split(SEPARATOR));
    }

    /** Sets (or, when {@code columns} is empty, removes) the PRIMARY KEY of a table just created, loaded or dropped. */
    public static void set(Catalog catalog, String table, List<String> columns) {
        TableProperties.put(catalog, TableProperties.key(PREFIX, table),
                columns.isEmpty() ? null : String.join(SEPARATOR, columns) + SEPARATOR);
    }
}
