package io.warpdb.storage;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The tables of one database, in memory ({@link #Catalog(BufferAllocator)}) or durable in a
 * data directory ({@link #open}). Names are matched case-insensitively and kept as created.
 * Every change (create, drop, append, delete, property) is one commit producing a new version;
 * commits are serialized, reads never wait. Thread-safe. Closing frees all memory.
 */
public final class Catalog implements AutoCloseable {
    private final BufferAllocator allocator;
    private final StorageOptions options;
    private final Store store;
    /** Ids of tables, segments and delete vectors; persisted as the manifest's nextId. */
    private final AtomicLong ids;
    private final Set<CatalogSnapshot> snapshots = ConcurrentHashMap.newKeySet();
    private final LongAdder segmentsRead = new LongAdder();
    private final LongAdder segmentsSkipped = new LongAdder();
    private final LongAdder chunksRead = new LongAdder();
    private volatile Version current;
    private volatile boolean closed;

    /** An in-memory catalog whose tables allocate from a child of {@code parent}. */
    public Catalog(BufferAllocator parent) {
        this(parent, StorageOptions.defaults());
    }

    /** An in-memory catalog with the given options; its cache holds decoded chunks of the encoded segments. */
    public Catalog(BufferAllocator parent, StorageOptions options) {
        this(parent.newChildAllocator("storage", 0, Long.MAX_VALUE), options, Version.of(Manifest.empty()));
    }

    /** In memory: the store's segments are charged to the catalog's own {@code allocator}, closed last. */
    private Catalog(BufferAllocator allocator, StorageOptions options, Version initial) {
        this(allocator, options, new MemoryStore(allocator, options), initial);
    }

    private Catalog(BufferAllocator allocator, StorageOptions options, Store store, Version initial) {
        this.allocator = allocator;
        this.options = options;
        this.store = store;
        this.current = initial;
        this.ids = new AtomicLong(initial.manifest().nextId());
    }

    /**
     * Opens the durable database in {@code dir}, creating it when the directory is missing or
     * empty. The directory stays locked until {@link #close()}: a second process (or a second
     * open in this one) fails with SQLSTATE 08000. A damaged manifest or delete vector fails
     * with a {@link CorruptDataException}.
     */
    public static Catalog open(Path dir, BufferAllocator parent, StorageOptions options) {
        BufferAllocator allocator = parent.newChildAllocator("storage " + dir, 0, Long.MAX_VALUE);
        DurableStore store = null;
        try {
            store = DurableStore.open(dir, allocator, options);
            return new Catalog(allocator, options, store, Version.adopt(store.recover()));
        } catch (RuntimeException e) {
            if (store != null) {
                store.close();
            }
            allocator.close();
            throw e;
        }
    }

    /** Creates a table; SQLSTATE 42P07 if one of that name exists (unless {@code ifNotExists}). */
    public synchronized Table create(String name, Schema schema, boolean ifNotExists) {
        Optional<TableState> existing = manifest().table(name);
        if (existing.isPresent()) {
            if (ifNotExists) {
                return new Table(this, existing.get());
            }
            throw new WarpException(SqlState.DUPLICATE_TABLE, "table " + existing.get().name() + " already exists");
        }
        for (int i = 0; i < schema.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (schema.field(i).name().equalsIgnoreCase(schema.field(j).name())) {
                    throw new WarpException(SqlState.DUPLICATE_COLUMN, "column " + schema.field(i).name()
                            + " appears twice in table " + name);
                }
            }
        }
        TableState table = new TableState(nextId(), name, schema, List.of());
        commit(m -> m.with(table));
        return new Table(this, table);
    }

    /** Drops a table; SQLSTATE 42P01 if there is none of that name (unless {@code ifExists}). */
    public synchronized void drop(String name, boolean ifExists) {
        if (manifest().table(name).isEmpty()) {
            if (ifExists) {
                return;
            }
            throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " does not exist");
        }
        commit(m -> m.without(name));
    }

    public Optional<Table> table(String name) {
        return manifest().table(name).map(t -> new Table(this, t));
    }

    /** All tables, sorted by name. */
    public List<Table> tables() {
        return manifest().tables().values().stream()
                .sorted(Comparator.comparing(TableState::name, String.CASE_INSENSITIVE_ORDER))
                .map(t -> new Table(this, t))
                .toList();
    }

    /**
     * The current version of all tables and properties, readable until the snapshot is closed
     * whatever is committed meanwhile. Unclosed snapshots keep old files on disk.
     */
    public synchronized CatalogSnapshot snapshot() {
        checkOpen();
        current.retain();
        CatalogSnapshot snapshot = new CatalogSnapshot(this, current);
        snapshots.add(snapshot);
        return snapshot;
    }

    /** The opaque properties of the current version (the SQL layer keeps view definitions here). */
    public Map<String, String> properties() {
        return manifest().properties();
    }

    /** Sets ({@code value} not null) or removes a property, as one commit. */
    public void setProperty(String key, String value) {
        commit(m -> m.withProperty(key, value));
    }

    /** The names of the loads staged (see {@link Table#stage}) and neither published nor discarded, sorted. */
    public Set<String> stagedLoads() {
        return manifest().staged().keySet();
    }

    /**
     * Appends the rows of staged load {@code load} to its table and sets {@code properties} (a
     * null value removes one) in one commit.
     *
     * @return the rows published; empty, with nothing committed, when no load of that name is staged
     */
    public synchronized OptionalLong publishStaged(String load, Map<String, String> properties) {
        StagedLoad staged = manifest().staged().get(load);
        if (staged == null) {
            return OptionalLong.empty();
        }
        commit(m -> withProperties(m.withoutStaged(load, true), properties));
        return OptionalLong.of(staged.rows());
    }

    /**
     * Drops staged load {@code load} and sets {@code properties} in one commit; its files are deleted.
     *
     * @return whether a load of that name was staged
     */
    public synchronized boolean discardStaged(String load, Map<String, String> properties) {
        if (!manifest().staged().containsKey(load)) {
            return false;
        }
        commit(m -> withProperties(m.withoutStaged(load, false), properties));
        return true;
    }

    private static Manifest withProperties(Manifest m, Map<String, String> properties) {
        for (Map.Entry<String, String> p : properties.entrySet()) {
            m = m.withProperty(p.getKey(), p.getValue());
        }
        return m;
    }

    /** The number of the current version; it grows by one with every commit. */
    public long version() {
        return manifest().version();
    }

    public CacheStats cacheStats() {
        return store.cacheStats();
    }

    public ScanStats scanStats() {
        return new ScanStats(segmentsRead.sum(), segmentsSkipped.sum(), chunksRead.sum());
    }

    Manifest manifest() {
        checkOpen();
        return current.manifest();
    }

    /**
     * Makes {@code change(current manifest)} the next version: durable first, then visible.
     * When the change or the store throws, nothing happens.
     */
    synchronized void commit(UnaryOperator<Manifest> change) {
        Manifest base = manifest();
        Manifest next = change.apply(base).succeeding(base, ids.get());
        store.commit(next);
        Version previous = current;
        current = Version.of(next);
        previous.release();
    }

    boolean contains(long tableId) {
        return !closed && current.manifest().table(tableId).isPresent();
    }

    long nextId() {
        return ids.getAndIncrement();
    }

    StorageOptions options() {
        return options;
    }

    BufferAllocator allocator() {
        return allocator;
    }

    Store store() {
        return store;
    }

    void countReadSegment(int chunks) {
        segmentsRead.increment();
        chunksRead.add(chunks);
    }

    void countSkippedSegment() {
        segmentsSkipped.increment();
    }

    void forget(CatalogSnapshot snapshot) {
        snapshots.remove(snapshot);
    }

    private void checkOpen() {
        if (closed) {
            throw new WarpException(SqlState.CONNECTION_EXCEPTION, "the catalog is closed");
        }
    }

    /** Closes open snapshots, frees all memory and unlocks the directory; files stay as committed. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            store.close(); // first, so that releasing the versions below deletes no files
        } finally {
            List.copyOf(snapshots).forEach(CatalogSnapshot::close);
            current.release();
            allocator.close();
        }
    }
}
