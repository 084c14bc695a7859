package io.warpdb.sql;

import io.warpdb.core.exec.ExecContext;
import java.util.List;

/**
 * A connection's state: the executor setting ({@code auto}, {@code cpu}, {@code gpu}) and the
 * statement running now. Statements run one at a time per session; {@link #cancel()} may be
 * called from another thread.
 */
public final class Session implements AutoCloseable {
    private final Database database;
    private volatile String executor = "auto";
    private volatile ExecContext running;

    Session(Database database) {
        this.database = database;
    }

    public Database database() {
        return database;
    }

    /** The executor setting: {@code auto}, {@code cpu} or {@code gpu}. */
    public String executor() {
        return executor;
    }

    /** Changes the executor setting (also {@code SET executor = 'cpu'} in SQL); SQLSTATE 22023 if unknown. */
    public void setExecutor(String name) {
        String n = name.trim().toLowerCase(java.util.Locale.ROOT);
        if (!n.equals("auto")) {
            database.executors().require(n);
        }
        executor = n;
    }

    /**
     * Parses, plans and runs one statement. {@code parameters} bind the {@code ?} markers in
     * order (JDBC objects: Integer, Long, BigDecimal, Double, String, Boolean, java.sql.Date, or null).
     * Errors are {@link io.warpdb.core.error.WarpException}s carrying a SQLSTATE.
     */
    public StatementResult execute(String sql, List<Object> parameters) {
        return new StatementRunner(this).run(sql, parameters);
    }

    /** Parses and validates without running: parameter types and result columns. */
    public PreparedInfo prepare(String sql) {
        return new StatementRunner(this).prepare(sql);
    }

    void started(ExecContext context) {
        running = context;
    }

    void finished(ExecContext context) {
        if (running == context) {
            running = null;
        }
    }

    /** Cancels the statement running now, if any; it fails with SQLSTATE 57014. */
    public void cancel() {
        ExecContext c = running;
        if (c != null) {
            c.cancel();
        }
    }

    @Override
    public void close() {
        cancel();
    }
}
