package io.warpdb.sql;

import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.StorageOptions;
import java.nio.file.Path;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * One database: its catalog, the executors it may use and the root of all its memory.
 * Sessions are opened per connection. Closing frees all tables; every session's results must
 * be closed before.
 */
public final class Database implements AutoCloseable {
    private final String name;
    private final BufferAllocator allocator;
    private final Catalog catalog;
    private final ExecutorRegistry executors;
    private final PlanCache planCache = new PlanCache();
    private final StatementPlanner planner;

    private Database(String name, Function<BufferAllocator, Catalog> catalogFactory, ExecutorRegistry executors) {
        this.name = name;
        this.allocator = new RootAllocator(Long.MAX_VALUE);
        try {
            this.catalog = catalogFactory.apply(allocator);
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
        this.executors = executors;
        this.planner = new StatementPlanner(catalog);
    }

    /** A database held in memory only, with the executors found on the class path. */
    public static Database inMemory(String name) {
        return inMemory(name, ExecutorRegistry.load());
    }

    /** A database held in memory only, with the given executors. */
    public static Database inMemory(String name, ExecutorRegistry executors) {
        return new Database(name, Catalog::new, executors);
    }

    /**
     * The durable database in {@code directory} (created when missing), with the executors found
     * on the class path. Only one process may have a directory open at a time.
     */
    public static Database open(Path directory, StorageOptions options) {
        return new Database(directory.toString(), a -> Catalog.open(directory, a, options), ExecutorRegistry.load());
    }

    public String name() {
        return name;
    }

    public Catalog catalog() {
        return catalog;
    }

    public ExecutorRegistry executors() {
        return executors;
    }

    /** Plans of queries run before, shared by all sessions. */
    PlanCache planCache() {
        return planCache;
    }

    /** Plans the queries and DML statements of all sessions. */
    StatementPlanner planner() {
        return planner;
    }

    /** The root allocator; queries allocate from children of it. */
    public BufferAllocator allocator() {
        return allocator;
    }

    /** A new session with the default executor {@code auto}. */
    public Session newSession() {
        return new Session(this);
    }

    @Override
    public void close() {
        catalog.close();
        allocator.close();
    }
}
