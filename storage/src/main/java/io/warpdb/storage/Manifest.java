package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One committed state of a catalog: its tables, their segments and delete vectors, and the
 * opaque properties the SQL layer keeps (view definitions). Immutable; a commit derives the
 * next manifest with the {@code with...} methods. {@link ManifestFile} is its durable form.
 *
 * @param version    increases by one per commit
 * @param nextId     the next unused id for tables, segments and delete vectors
 * @param properties sorted by key
 * @param tables     keyed by upper-cased name (names match case-insensitively), sorted
 */
record Manifest(long version, long nextId, Map<String, String> properties, Map<String, TableState> tables) {
    Manifest {
        properties = Collections.unmodifiableMap(new TreeMap<>(properties));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
    }

    static Manifest empty() {
        return new Manifest(0, 1, Map.of(), Map.of());
    }

    static String key(String tableName) {
        return tableName.toUpperCase(Locale.ROOT);
    }

    Optional<TableState> table(String name) {
        return Optional.ofNullable(tables.get(key(name)));
    }

    Optional<TableState> table(long id) {
        return tables.values().stream().filter(t -> t.id() == id).findFirst();
    }

    /** The table of that id; SQLSTATE 42P01 when a commit since dropped it. */
    TableState tableOrThrow(long id, String name) {
        return table(id).orElseThrow(() -> new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " was dropped"));
    }

    Manifest with(TableState table) {
        Map<String, TableState> next = new TreeMap<>(tables);
        next.put(key(table.name()), table);
        return new Manifest(version, nextId, properties, next);
    }

    Manifest without(String tableName) {
        Map<String, TableState> next = new TreeMap<>(tables);
        next.remove(key(tableName));
        return new Manifest(version, nextId, properties, next);
    }

    Manifest withProperty(String key, String value) {
        Map<String, String> next = new TreeMap<>(properties);
        if (value == null) {
            next.remove(key);
        } else {
            next.put(key, value);
        }
        return new Manifest(version, nextId, next, tables);
    }

    /** This state as the version after {@code previous}, with ids from {@code nextId} on unused. */
    Manifest succeeding(Manifest previous, long newNextId) {
        return new Manifest(previous.version + 1, newNextId, properties, tables);
    }

    void forEachSegment(Consumer<SegmentRef> action) {
        tables.values().forEach(t -> t.segments().forEach(action));
    }
}
