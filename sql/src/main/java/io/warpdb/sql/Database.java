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
    private volatile StatementInterceptor interceptor;

    private Database(String name, Function<BufferAllocator, Catalog> catalogFactory, ExecutorRegistry executors) {
        this(name, new RootAllocator(Long.MAX_VALUE), catalogFactory, executors);
    }

    private Database(String name, BufferAllocator allocator, Function<BufferAllocator, Catalog> catalogFactory, ExecutorRegistry executors) {
        this.name = name;
        this.allocator = allocator;
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
     * An in-memory database whose memory comes from {@code parent}'s (Arrow moves buffers only
     * between allocators of one root), with its executors: for a statement's intermediate tables.
     */
    public static Database inMemoryWithin(String name, Database parent) {
        return new Database(name, parent.allocator().newChildAllocator(name, 0, Long.MAX_VALUE), Catalog::new, parent.executors());
    }

    /**
     * The durable database in {@code directory} (created when missing), with the executors found
     * on the class path. Only one process may have a directory open at a time.
     */
    public static Database open(Path directory, StorageOptions options) {
        return new Database(directory.toString(), a -> Catalog.open(directory, a, options), ExecutorRegistry.load());
    }

    /**
     * The durable database in {@code directory} (created when missing) whose memory comes from
     * {@code parent}'s, with its executors: for a statement's intermediate tables too large to hold
     * in memory (Arrow moves buffers only between allocators of one root).
     */
    public static Database openWithin(Path directory, StorageOptions options, Database parent) {
        return new Database(directory.toString(), parent.allocator().newChildAllocator(directory.toString(), 0, Long.MAX_VALUE),
                a -> Catalog.open(directory, a, options), parent.executors());
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

    /** A new client session with the default executor {@code auto}; its statements go through the interceptor, if any. */
    public Session newSession() {
        return new Session(this, true);
    }

    /** A new session whose statements always run on this database itself, never through the interceptor. */
    public Session newLocalSession() {
        return new Session(this, false);
    }

    /** Routes the statements of sessions opened by {@link #newSession()} from now on through {@code interceptor}. */
    public void setInterceptor(StatementInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    StatementInterceptor interceptor() {
        return interceptor;
    }

    @Override
    public void close() {
        catalog.close();
        allocator.close();
    }
}
