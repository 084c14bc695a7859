package io.warpdb.storage;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One committed version of every table and property, readable until closed whatever commits
 * follow. Its files are kept while it is open; closing it lets go of versions no one else
 * uses. Take one per statement: plan and execute against its tables, close it at the end.
 */
public final class CatalogSnapshot implements AutoCloseable {
    private final Catalog catalog;
    private final Version version;
    private final AtomicBoolean closed = new AtomicBoolean();

    CatalogSnapshot(Catalog catalog, Version version) {
        this.catalog = catalog;
        this.version = version;
    }

    /** The version number: it grows by one with every commit. */
    public long version() {
        return version.manifest().version();
    }

    /** The table of that name (case-insensitive) in this version. */
    public Optional<TableSource> table(String name) {
        checkOpen();
        return version.manifest().table(name).map(t -> new TableVersion(catalog, t, this));
    }

    /** All tables of this version, sorted by name. */
    public List<TableSource> tables() {
        checkOpen();
        return version.manifest().tables().values().stream()
                .sorted(Comparator.comparing(TableState::name, String.CASE_INSENSITIVE_ORDER))
                .map(t -> (TableSource) new TableVersion(catalog, t, this))
                .toList();
    }

    /** The catalog properties of this version. */
    public Map<String, String> properties() {
        return version.manifest().properties();
    }

    void checkOpen() {
        if (closed.get()) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "snapshot of catalog version " + version() + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            catalog.forget(this);
            version.release();
        }
    }
}
