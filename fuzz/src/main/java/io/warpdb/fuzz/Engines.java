package io.warpdb.fuzz;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A dataset loaded into a fresh in-memory WarpDB database (one connection per executor, all
 * sharing the database) and a fresh in-process DuckDB database.
 */
public final class Engines implements AutoCloseable {
    /** SQLSTATE of "executor not available here". */
    public static final String EXECUTOR_NOT_AVAILABLE = "22023";

    private static final AtomicLong DATABASES = new AtomicLong();

    private final Map<String, Engine> warpdb;
    private final Engine duckdb;

    private Engines(Map<String, Engine> warpdb, Engine duckdb) {
        this.warpdb = warpdb;
        this.duckdb = duckdb;
    }

    /** A statement of the dataset that WarpDB or DuckDB refused. */
    public static final class LoadException extends Exception {
        private final String engine;
        private final String statement;
        private final transient QueryFailure failure;

        LoadException(String engine, String statement, QueryFailure failure) {
            super(engine + " failed to load: " + failure.summary() + " in " + statement);
            this.engine = engine;
            this.statement = statement;
            this.failure = failure;
        }

        public String engine() {
            return engine;
        }

        public String statement() {
            return statement;
        }

        public QueryFailure failure() {
            return failure;
        }
    }

    /** Loads the dataset into both engines. */
    public static Engines load(Dataset dataset, List<String> executors, int timeoutSeconds) throws LoadException {
        String url = "jdbc:warpdb:mem:fuzz" + DATABASES.incrementAndGet();
        Map<String, Engine> warpdb = new LinkedHashMap<>();
        Engine duckdb = null;
        try {
            for (String executor : executors) {
                warpdb.put(executor, new Engine("warpdb-" + executor, warpDbConnection(url, executor), QueryFailure::ofWarpDb,
                        timeoutSeconds));
            }
            duckdb = new Engine("duckdb", duckDbConnection(), QueryFailure::ofDuckDb, timeoutSeconds);
            Engine loader = warpdb.values().iterator().next();
            for (String statement : dataset.statements()) {
                run(duckdb, statement, QueryFailure::ofDuckDb);
                run(loader, statement, QueryFailure::ofWarpDb);
            }
            return new Engines(warpdb, duckdb);
        } catch (LoadException | RuntimeException e) {
            warpdb.values().forEach(Engine::close);
            if (duckdb != null) {
                duckdb.close();
            }
            throw e;
        } catch (SQLException e) {
            warpdb.values().forEach(Engine::close);
            throw new IllegalStateException("cannot open the engines: " + e.getMessage(), e);
        }
    }

    private static void run(Engine engine, String statement, java.util.function.Function<Throwable, QueryFailure> classify)
            throws LoadException {
        try {
            engine.execute(statement);
        } catch (Throwable t) {
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                throw (VirtualMachineError) t;
            }
            throw new LoadException(engine.name(), statement, classify.apply(t));
        }
    }

    static Connection warpDbConnection(String url, String executor) throws SQLException {
        Properties p = new Properties();
        p.setProperty("executor", executor);
        return DriverManager.getConnection(url, p);
    }

    /**
     * An in-process DuckDB database. IEEE floating-point operations are off, so that a DOUBLE
     * division by zero fails there as it does in WarpDB, instead of giving Infinity or NaN.
     */
    static Connection duckDbConnection() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try (var st = c.createStatement()) {
            st.execute("SET ieee_floating_point_ops = false");
        }
        return c;
    }

    /**
     * Why the executor cannot run here, or null when it can: a connection with it whose first
     * query fails with SQLSTATE 22023 means "not available".
     */
    public static String unavailableReason(String executor) {
        try (Connection c = warpDbConnection("jdbc:warpdb:mem:fuzzprobe" + DATABASES.incrementAndGet(), executor);
                var st = c.createStatement()) {
            st.execute("SET executor = '" + executor + "'");
            st.executeQuery("SELECT 1").close();
            return null;
        } catch (SQLException e) {
            return EXECUTOR_NOT_AVAILABLE.equals(QueryFailure.sqlState(e))
                    ? String.valueOf(e.getMessage()).lines().findFirst().orElse("") : null;
        }
    }

    public Engine duckdb() {
        return duckdb;
    }

    /** The WarpDB connections by executor name, in the order asked for. */
    public Map<String, Engine> warpdb() {
        return warpdb;
    }

    @Override
    public void close() {
        List<Engine> all = new ArrayList<>(warpdb.values());
        all.add(duckdb);
        all.forEach(Engine::close);
    }
}
