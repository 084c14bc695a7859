package io.warpdb.fuzz;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One JDBC connection that queries run on: WarpDB with one executor, or DuckDB. A query that
 * runs longer than the time limit is cancelled.
 */
public final class Engine implements AutoCloseable {
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fuzz-query-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final String name;
    private final Connection connection;
    private final Function<Throwable, QueryFailure> classifier;
    private final int timeoutSeconds;

    Engine(String name, Connection connection, Function<Throwable, QueryFailure> classifier, int timeoutSeconds) {
        this.name = name;
        this.connection = connection;
        this.classifier = classifier;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** "duckdb", or "warpdb-" and the executor. */
    public String name() {
        return name;
    }

    /** Runs a query and reads all its rows; any failure, of any kind, becomes the outcome. */
    public Outcome run(String sql) {
        try (Statement st = connection.createStatement()) {
            ScheduledFuture<?> cancel = WATCHDOG.schedule(() -> cancel(st), timeoutSeconds, TimeUnit.SECONDS);
            try {
                if (!st.execute(sql)) {
                    return Outcome.failed(classifier.apply(new SQLException("the query returned no rows: " + sql)));
                }
                return Outcome.of(QueryResult.read(st.getResultSet()));
            } finally {
                cancel.cancel(false);
            }
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                throw (VirtualMachineError) t;
            }
            return Outcome.failed(classifier.apply(t));
        }
    }

    /** Runs a statement that returns no rows (DDL, INSERT, SET). */
    public void execute(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
    }

    private static void cancel(Statement st) {
        try {
            st.cancel();
        } catch (SQLException | RuntimeException ignored) {
            // The statement ended meanwhile.
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Closing an in-memory database; nothing to keep.
        }
    }
}
