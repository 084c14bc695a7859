package io.warpdb.sql;

import io.warpdb.storage.Catalog;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the SQL layer keeps per table in catalog properties ({@code <prefix><TABLE>}): column DEFAULTs, PRIMARY KEYs. */
public final class TableProperties {
    private TableProperties() {
    }

    static String key(String prefix, String table) {
        return prefix + table.toUpperCase(Locale.ROOT);
    }

    /** Sets {@code key} to {@code value}, or removes it when {@code value} is null (no commit when it is absent already). */
    static void put(Catalog catalog, String key, String value) {
        if (value != null || catalog.properties().containsKey(key)) {
            catalog.setProperty(key, value);
        }
    }

    /**
     * Drops table {@code name} (a missing one is no error when {@code ifExists}) and what this layer
     * keeps for it, so that no table made later under that name inherits its DEFAULTs or PRIMARY KEY.
     */
    public static void dropTable(Catalog catalog, String name, boolean ifExists) {
        catalog.drop(name, ifExists);
        ColumnDefaults.set(catalog, name, Map.of());
        PrimaryKeys.set(catalog, name, List.of());
    }
}
