package io.warpdb.jdbc;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Lets at most a fixed number of statements execute at once across a server's clients; the
 * others wait in arrival order, each for at most the queue timeout, after which it fails with
 * SQLSTATE 53000 rather than waiting on. Many clients thus share the cores and memory instead of
 * all slowing down (and running out of memory) together.
 */
final class QueryGate {
    private final Semaphore permits;
    private final int limit;
    private final Duration queueTimeout;

    QueryGate(int limit, Duration queueTimeout) {
        this.permits = new Semaphore(limit, true);
        this.limit = limit;
        this.queueTimeout = queueTimeout;
    }

    /** A gate that never makes anyone wait (embedded connections). */
    static QueryGate open() {
        return new QueryGate(Integer.MAX_VALUE, Duration.ZERO);
    }

    <T> T run(Supplier<T> statement) {
        try {
            if (!permits.tryAcquire(queueTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new WarpException(SqlState.INSUFFICIENT_RESOURCES, "the server is running its limit of " + limit
                        + " statements at once; this one waited " + queueTimeout.toSeconds() + " s in the queue");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WarpException(SqlState.QUERY_CANCELED, "interrupted while waiting in the statement queue");
        }
        try {
            return statement.get();
        } finally {
            permits.release();
        }
    }
}
