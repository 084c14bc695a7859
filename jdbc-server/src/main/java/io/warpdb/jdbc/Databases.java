package io.warpdb.jdbc;

import io.warpdb.sql.Database;
import io.warpdb.storage.StorageOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The databases this JVM has open, by location: {@code mem:<name>} for an in-memory database,
 * otherwise the path of a durable database directory. Everyone who opens a location shares one
 * {@link Database}; it lives while at least one {@link Lease} on it is open and is closed when
 * the last one closes (freeing an in-memory database's data, releasing a directory's lock).
 */
public final class Databases {
    private static final Databases SHARED = new Databases();

    private final Map<String, Shared> open = new HashMap<>();

    private Databases() {
    }

    /** The registry the embedded driver and the server use, so both see the same databases. */
    public static Databases shared() {
        return SHARED;
    }

    public static final String MEMORY = "mem:";

    /** The location of a durable database directory, as the registry keys it. */
    public static String directory(String path) {
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /**
     * Opens the database at {@code location} ({@code mem:<name>} or a directory path), creating
     * it empty if it does not exist and nobody holds it now.
     */
    public synchronized Lease acquire(String location) {
        Shared shared = open.get(location);
        if (shared == null) {
            Database database = location.startsWith(MEMORY) ? Database.inMemory(location.substring(MEMORY.length()))
                    : Database.open(Path.of(location), StorageOptions.defaults());
            shared = new Shared(location, database);
            open.put(location, shared);
        }
        shared.leases++;
        return new Lease(shared);
    }

    private synchronized void release(Shared shared) {
        if (--shared.leases == 0) {
            open.remove(shared.location);
            shared.database.close();
        }
    }

    private static final class Shared {
        final String location;
        final Database database;
        int leases;

        Shared(String location, Database database) {
            this.location = location;
            this.database = database;
        }
    }

    /** One holder's claim on a database; closing it more than once releases it once. */
    public final class Lease implements AutoCloseable {
        private final Shared shared;
        private boolean closed;

        private Lease(Shared shared) {
            this.shared = shared;
        }

        public Database database() {
            return shared.database;
        }

        @Override
        public void close() {
            synchronized (Databases.this) {
                if (closed) {
                    return;
                }
                closed = true;
                release(shared);
            }
        }
    }
}
