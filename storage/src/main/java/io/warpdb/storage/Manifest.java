package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One committed state of a catalog: its tables, their segments and delete vectors, the loads
 * staged for them and not yet published, and the opaque properties the SQL layer keeps (view
 * definitions). Immutable; a commit derives the next manifest with the {@code with...} methods.
 * {@link ManifestFile} is its durable form.
 *
 * @param version    increases by one per commit
 * @param nextId     the next unused id for tables, segments and delete vectors
 * @param properties sorted by key
 * @param tables     keyed by upper-cased name (names match case-insensitively), sorted
 * @param staged     staged loads by name, sorted; each for a table of {@code tables}
 */
record Manifest(long version, long nextId, Map<String, String> properties, Map<String, TableState> tables,
        Map<String, StagedLoad> staged) {
    Manifest {
        properties = Collections.unmodifiableMap(new TreeMap<>(properties));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        staged = Collections.unmodifiableMap(new TreeMap<>(staged));
    }

    static Manifest empty() {
        return new Manifest(0, 1, Map.of(), Map.of(), Map.of());
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
        return new Manifest(version, nextId, properties, next, staged);
    }

    /** Without the table, and without the loads staged for it. */
    Manifest without(String tableName) {
        Map<String, TableState> next = new TreeMap<>(tables);
        TableState dropped = next.remove(key(tableName));
        Map<String, StagedLoad> stillStaged = new TreeMap<>(staged);
        if (dropped != null) {
            stillStaged.values().removeIf(load -> load.tableId() == dropped.id());
        }
        return new Manifest(version, nextId, properties, next, stillStaged);
    }

    /** With {@code load} (the name of a staged load) holding {@code segments} for the table, after what it holds already. */
    Manifest withStaged(String load, TableState table, List<SegmentRef> segments) {
        Map<String, StagedLoad> next = new TreeMap<>(staged);
        StagedLoad existing = next.get(load);
        if (existing != null && existing.tableId() != table.id()) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "load " + load + " is staged for another table than "
                    + table.name());
        }
        next.put(load, existing == null ? new StagedLoad(table.id(), segments) : existing.plus(segments));
        return new Manifest(version, nextId, properties, tables, next);
    }

    /** Without the staged load {@code load}; its segments appended to its table when {@code publish}. */
    Manifest withoutStaged(String load, boolean publish) {
        Map<String, StagedLoad> next = new TreeMap<>(staged);
        StagedLoad removed = next.remove(load);
        Manifest m = new Manifest(version, nextId, properties, tables, next);
        if (publish && removed != null && !removed.segments().isEmpty()) {
            TableState table = table(removed.tableId()).orElseThrow();
            List<SegmentRef> segments = new ArrayList<>(table.segments());
            segments.addAll(removed.segments());
            m = m.with(table.withSegments(segments));
        }
        return m;
    }

    Manifest withProperty(String key, String value) {
        Map<String, String> next = new TreeMap<>(properties);
        if (value == null) {
            next.remove(key);
        } else {
            next.put(key, value);
        }
        return new Manifest(version, nextId, next, tables, staged);
    }

    /** This state as the version after {@code previous}, with ids from {@code nextId} on unused. */
    Manifest succeeding(Manifest previous, long newNextId) {
        return new Manifest(previous.version + 1, newNextId, properties, tables, staged);
    }

    /** Every segment the manifest names: its tables', then its staged loads'. */
    void forEachSegment(Consumer<SegmentRef> action) {
        tables.values().forEach(t -> t.segments().forEach(action));
        staged.values().forEach(load -> load.segments().forEach(action));
    }
}
