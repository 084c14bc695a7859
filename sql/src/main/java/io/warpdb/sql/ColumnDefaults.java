package io.warpdb.sql;

import io.warpdb.storage.Catalog;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Columns' DEFAULT values, kept as catalog properties ({@code default.<TABLE>}) as views are, so
 * they are durable and versioned with the tables. The stored value is the column names and the
 * SQL texts of their defaults, each followed by {@link #SEPARATOR}.
 */
public final class ColumnDefaults {
    private static final String PREFIX = "default.";
    private static final String SEPARATOR = "\u0001";

    private ColumnDefaults() {
    }

    /** The DEFAULT texts of {@code table}'s columns, by column name; empty when none has one. */
    public static Map<String, String> of(Map<String, String> properties, String table) {
        String value = properties.get(TableProperties.key(PREFIX, table));
        Map<String, String> defaults = new LinkedHashMap<>();
        if (value != null) {
            String[] parts = value.split(SEPARATOR, -1);
            for (int i = 0; i + 1 < parts.length; i += 2) {
                defaults.put(parts[i], parts[i + 1]);
            }
        }
        return defaults;
    }

    /** Sets (or, when {@code defaults} is empty, removes) the defaults of a table just created or dropped. */
    static void set(Catalog catalog, String table, Map<String, String> defaults) {
        StringBuilder value = new StringBuilder();
        defaults.forEach((column, text) -> value.append(column).append(SEPARATOR).append(text).append(SEPARATOR));
        TableProperties.put(catalog, TableProperties.key(PREFIX, table), defaults.isEmpty() ? null : value.toString());
    }
}
