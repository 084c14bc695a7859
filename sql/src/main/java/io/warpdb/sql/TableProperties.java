package io.warpdb.sql;

import io.warpdb.storage.Catalog;
import java.util.Locale;

/** What the SQL layer keeps per table in catalog properties ({@code <prefix><TABLE>}): column DEFAULTs, PRIMARY KEYs. */
final class TableProperties {
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
}
