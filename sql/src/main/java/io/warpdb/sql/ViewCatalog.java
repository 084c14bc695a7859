package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The views of a database: named query texts, expanded by the planner wherever they are used.
 * Views live here rather than in storage because storage knows no SQL.
 */
public final class ViewCatalog {
    /** A view: its name, the text of its query and optional column names (null: the query's). */
    public record View(String name, String query, List<String> columnNames) {
    }

    private final Map<String, View> views = new ConcurrentHashMap<>();

    private static String key(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    void create(View view, boolean orReplace) {
        if (views.putIfAbsent(key(view.name()), view) != null) {
            if (!orReplace) {
                throw new WarpException(SqlState.DUPLICATE_TABLE, "view " + view.name() + " already exists");
            }
            views.put(key(view.name()), view);
        }
    }

    void drop(String name, boolean ifExists) {
        if (views.remove(key(name)) == null && !ifExists) {
            throw new WarpException(SqlState.UNDEFINED_TABLE, "view " + name + " does not exist");
        }
    }

    public Optional<View> view(String name) {
        return Optional.ofNullable(views.get(key(name)));
    }

    /** All views, sorted by name. */
    public List<View> views() {
        List<View> all = new ArrayList<>(views.values());
        all.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return all;
    }
}
