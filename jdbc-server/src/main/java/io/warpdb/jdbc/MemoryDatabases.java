package io.warpdb.jdbc;

import io.warpdb.sql.Database;
import java.util.HashMap;
import java.util.Map;

/**
 * The in-memory databases of this JVM, by name. Everyone who opens a name shares one
 * {@link Database}; it lives while at least one {@link Lease} on it is open and is closed,
 * freeing its memory, when the last one closes.
 */
public final class MemoryDatabases {
    private static final MemoryDatabases SHARED = new MemoryDatabases();

    private final Map<String, Shared> open = new HashMap<>();

    private MemoryDatabases() {
    }

    /** The registry the embedded driver and the server use, so both see the same databases. */
    public static MemoryDatabases shared() {
        return SHARED;
    }

    /** Opens the database of this name, creating it empty if nobody holds it now. */
    public synchronized Lease acquire(String name) {
        Shared shared = open.computeIfAbsent(name, n -> new Shared(Database.inMemory(n)));
        shared.leases++;
        return new Lease(shared);
    }

    private synchronized void release(Shared shared) {
        if (--shared.leases == 0) {
            open.remove(shared.database.name());
            shared.database.close();
        }
    }

    private static final class Shared {
        final Database database;
        int leases;

        Shared(Database database) {
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
            synchronized (MemoryDatabases.this) {
                if (closed) {
                    return;
                }
                closed = true;
                release(shared);
            }
        }
    }
}
