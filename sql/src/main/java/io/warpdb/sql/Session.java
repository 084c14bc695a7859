package io.warpdb.sql;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import java.util.List;

/**
 * A connection's state: the executor setting ({@code auto}, {@code cpu}, {@code gpu}) and the
 * statement running now. Statements run one at a time per session; {@link #cancel()} may be
 * called from another thread.
 */
public final class Session implements AutoCloseable {
    private final Database database;
    private final StatementRunner statements;
    private volatile String executor = "auto";
    private volatile int parallelism = ExecContext.defaultParallelism();
    private volatile long memoryLimit = defaultMemoryLimit();
    private volatile long queryTimeoutMillis;
    private volatile boolean planCacheEnabled = true;
    private volatile ExecContext running;
    private final boolean intercepted;

    Session(Database database, boolean intercepted) {
        this.database = database;
        this.intercepted = intercepted;
        this.statements = new StatementRunner(this);
    }

    public Database database() {
        return database;
    }

    /** The interceptor this session's statements go through; null for a local session or none set. */
    StatementInterceptor interceptor() {
        return intercepted ? database.interceptor() : null;
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

    /** Threads a statement's execution may use at once (also {@code SET parallelism = n}). */
    public int parallelism() {
        return parallelism;
    }

    /** Changes {@link #parallelism()}; SQLSTATE 22023 below 1. */
    public void setParallelism(int threads) {
        parallelism = ExecContext.requireValidParallelism(threads);
    }

    /**
     * The most bytes of batch memory one statement may hold at once; a statement that needs more
     * fails with SQLSTATE 53200 and releases what it held. Defaults to the system property
     * {@code warpdb.query.memoryLimit} (bytes, or with a KB/MB/GB suffix), else no limit.
     */
    public long memoryLimit() {
        return memoryLimit;
    }

    /** Changes {@link #memoryLimit()} (also {@code SET memory_limit = '512MB'}); SQLSTATE 22023 if not a positive size. */
    public void setMemoryLimit(String size) {
        memoryLimit = parseBytes(size);
    }

    private static long defaultMemoryLimit() {
        String configured = System.getProperty("warpdb.query.memoryLimit");
        return configured == null ? Long.MAX_VALUE : parseBytes(configured);
    }

    /** A byte count written as digits with an optional KB, MB or GB suffix (powers of 1024). */
    static long parseBytes(String size) {
        String text = size.trim().toUpperCase(java.util.Locale.ROOT);
        long unit = 1;
        for (String[] suffix : new String[][] {{"KB", "10"}, {"MB", "20"}, {"GB", "30"}}) {
            if (text.endsWith(suffix[0])) {
                unit = 1L << Integer.parseInt(suffix[1]);
                text = text.substring(0, text.length() - 2).trim();
            }
        }
        try {
            long value = Long.parseLong(text);
            if (value > 0 && value <= Long.MAX_VALUE / unit) {
                return value * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "not a memory size: '" + size + "' (bytes, or with KB, MB or GB)");
    }

    /**
     * Parses, plans and runs one statement. {@code parameters} bind the {@code ?} markers in
     * order (JDBC objects: Integer, Long, BigDecimal, Double, String, Boolean, java.sql.Date, or null).
     * Errors are {@link io.warpdb.core.error.WarpException}s carrying a SQLSTATE.
     */
    public StatementResult execute(String sql, List<Object> parameters) {
        return statements.run(sql, parameters);
    }

    /**
     * Parses and plans without running, for running many times: the result tells the parameter
     * types and result columns, and keeps the plan that each {@link PreparedStatement#execute} binds.
     */
    public PreparedStatement prepare(String sql) {
        return statements.prepare(sql);
    }

    /** Whether queries reuse plans kept in the database's plan cache (on by default). */
    public boolean planCacheEnabled() {
        return planCacheEnabled;
    }

    /** Turns plan reuse on or off (also {@code SET plan_cache = 'off'}); SQLSTATE 22023 unless on/off/true/false. */
    public void setPlanCache(String setting) {
        planCacheEnabled = switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "on", "true" -> true;
            case "off", "false" -> false;
            default -> throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "plan_cache must be on or off, not '" + setting + "'");
        };
    }

    /** How long a statement may run before it fails with SQLSTATE 57014, in ms; 0 for no limit. */
    public long queryTimeoutMillis() {
        return queryTimeoutMillis;
    }

    /**
     * Changes {@link #queryTimeoutMillis()} (also {@code SET query_timeout = '30s'}): a duration in
     * ms, s or min (a bare number is ms); 0 removes the limit. SQLSTATE 22023 if not a duration.
     */
    public void setQueryTimeout(String duration) {
        setQueryTimeoutMillis(parseMillis(duration));
    }

    public void setQueryTimeoutMillis(long millis) {
        if (millis < 0) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "a query timeout cannot be negative: " + millis + " ms");
        }
        queryTimeoutMillis = millis;
    }

    static long parseMillis(String duration) {
        String t = duration.trim().toLowerCase(java.util.Locale.ROOT).replace(" ", "");
        long unit = 1;
        String number = t;
        if (t.endsWith("ms")) {
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("min")) {
            unit = 60_000;
            number = t.substring(0, t.length() - 3);
        } else if (t.endsWith("s")) {
            unit = 1000;
            number = t.substring(0, t.length() - 1);
        }
        try {
            long value = Long.parseLong(number);
            if (value >= 0) {
                return Math.multiplyExact(value, unit);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // reported below
        }
        throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "not a duration: '" + duration + "' (ms, or with s or min; 0 for none)");
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
