package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.storage.Catalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Views: named query texts, expanded by the planner wherever they are used. They are kept as
 * catalog properties ({@code view.<NAME>}), so they are durable and versioned with the tables
 * while storage itself stays ignorant of SQL. The stored value is the column names (one line,
 * separated by {@link #SEPARATOR}; empty for the query's own) followed by the query text.
 */
public final class ViewCatalog {
    private static final String PREFIX = "view.";
    private static final String SEPARATOR = "\u0001";

    /** A view: its name, the text of its query and optional column names (null: the query's). */
    public record View(String name, String query, List<String> columnNames) {
    }

    private ViewCatalog() {
    }

    private static String key(String name) {
        return PREFIX + name.toUpperCase(Locale.ROOT);
    }

    /** The views among a catalog version's properties, sorted by name. */
    public static List<View> views(Map<String, String> properties) {
        List<View> out = new ArrayList<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            if (e.getKey().startsWith(PREFIX)) {
                out.add(decode(e.getValue()));
            }
        }
        out.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return out;
    }

    static boolean exists(Catalog catalog, String name) {
        return catalog.properties().containsKey(key(name));
    }

    static void create(Catalog catalog, View view, boolean orReplace) {
        if (!orReplace && exists(catalog, view.name())) {
            throw new WarpException(SqlState.DUPLICATE_TABLE, "view " + view.name() + " already exists");
        }
        catalog.setProperty(key(view.name()), encode(view));
    }

    static void drop(Catalog catalog, String name, boolean ifExists) {
        if (!exists(catalog, name)) {
            if (ifExists) {
                return;
            }
            throw new WarpException(SqlState.UNDEFINED_TABLE, "view " + name + " does not exist");
        }
        catalog.setProperty(key(name), null);
    }

    private static String encode(View view) {
        String columns = view.columnNames() == null ? "" : String.join(SEPARATOR, view.columnNames());
        return view.name() + SEPARATOR + columns + "\n" + view.query();
    }

    private static View decode(String value) {
        int nl = value.indexOf('\n');
        List<String> header = Arrays.asList(value.substring(0, nl).split(SEPARATOR, -1));
        List<String> columns = header.size() == 2 && header.get(1).isEmpty() ? null : header.subList(1, header.size());
        return new View(header.get(0), value.substring(nl + 1), columns);
    }
}
