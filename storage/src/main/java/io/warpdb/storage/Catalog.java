package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The tables of one database. Names are matched case-insensitively and kept as created.
 * Thread-safe. Closing frees every table's memory.
 */
public final class Catalog implements AutoCloseable {
    private final BufferAllocator allocator;
    private final Map<String, Table> tables = new ConcurrentHashMap<>();

    /** A catalog whose tables allocate from a child of {@code parent}. */
    public Catalog(BufferAllocator parent) {
        this.allocator = parent.newChildAllocator("storage", 0, Long.MAX_VALUE);
    }

    private static String key(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    /** Creates a table; SQLSTATE 42P07 if one of that name exists (unless {@code ifNotExists}). */
    public synchronized Table create(String name, Schema schema, boolean ifNotExists) {
        Table existing = tables.get(key(name));
        if (existing != null) {
            if (ifNotExists) {
                return existing;
            }
            throw new WarpException(SqlState.DUPLICATE_TABLE, "table " + existing.name() + " already exists");
        }
        for (int i = 0; i < schema.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (schema.field(i).name().equalsIgnoreCase(schema.field(j).name())) {
                    throw new WarpException(SqlState.DUPLICATE_COLUMN, "column " + schema.field(i).name()
                            + " appears twice in table " + name);
                }
            }
        }
        Table t = new Table(name, schema, allocator);
        tables.put(key(name), t);
        return t;
    }

    /** Drops a table; SQLSTATE 42P01 if there is none of that name (unless {@code ifExists}). */
    public synchronized void drop(String name, boolean ifExists) {
        Table t = tables.remove(key(name));
        if (t == null) {
            if (ifExists) {
                return;
            }
            throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " does not exist");
        }
        t.drop();
    }

    public Optional<Table> table(String name) {
        return Optional.ofNullable(tables.get(key(name)));
    }

    /** All tables, sorted by name. */
    public List<Table> tables() {
        List<Table> all = new ArrayList<>(tables.values());
        all.sort((a, b) -> a.name().compareToIgnoreCase(b.name()));
        return all;
    }

    @Override
    public synchronized void close() {
        tables.values().forEach(Table::drop);
        tables.clear();
        allocator.close();
    }
}
