package io.warpdb.sqltest;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a script runs: a WarpDB executor ({@code cpu}, {@code gpu}, {@code auto}) through the
 * embedded driver, each script on a fresh in-memory database, or with the suffix
 * {@code -durable} (e.g. {@code cpu-durable}) on a fresh durable database directory under
 * {@code target/sqltest-durable}, closed and reopened from disk before every query; or {@code duckdb}, the oracle used to cross-check expected
 * answers (types and error states are not checked there); or {@code flight}: the cpu executor behind a
 * WarpDB server's Arrow Flight SQL endpoint, reached with the stock Arrow Flight SQL JDBC driver, a
 * server (with a fresh in-memory database) per script, stopped when the script's connection closes; or
 * {@code cluster}: a 3-node cluster of {@code warpdb node} processes on loopback ({@link ClusterDatabases}),
 * each script through one node on the cluster's database emptied of tables; or {@code cluster-ucx}: the
 * same with the rows between nodes over UCX, compressed; or {@code cluster-ucx-two-level}: that with
 * the two-level shuffle, n1 and n2 in one group and n3 in another, as if on two hosts (records'
 * {@code skipif cluster} and {@code onlyif cluster} hold for both).
 */
public final class Target {
    /** SQLSTATE of "executor not available" / "unknown executor". */
    public static final String NOT_AVAILABLE_STATE = "22023";

    private static final AtomicLong DATABASES = new AtomicLong();
    private static Path durableRoot;
    private static final String DURABLE = "-durable";
    private static final String FLIGHT = "flight";
    private static final String CLUSTER = "cluster";
    private static final String CLUSTER_UCX = "cluster-ucx";
    private static final String CLUSTER_UCX_TWO_LEVEL = "cluster-ucx-two-level";
    /** The UCX targets' rows are compressed on loopback too (by default only between hosts), so that the codec is tested. */
    private static final String COMPRESSED = "wire.compression = always\n";
    /** The settings of {@link #CLUSTER_UCX_TWO_LEVEL}'s nodes: both hops of the shuffle happen on loopback. */
    private static final String TWO_LEVEL = "exchange.shuffle = two-level\ngroup.n1 = a\ngroup.n2 = a\ngroup.n3 = b\n";

    private final String name;
    private volatile String unavailableReason;
    private volatile boolean probed;

    public Target(String name) {
        this.name = name.strip().toLowerCase(Locale.ROOT);
    }

    public String name() {
        return name;
    }

    /** The executor this target runs on. */
    private String executor() {
        if (name.equals(FLIGHT) || isCluster(name)) {
            return "cpu";
        }
        return name.endsWith(DURABLE) ? name.substring(0, name.length() - DURABLE.length()) : name;
    }

    /** Whether the target named {@code name} (as {@link #name()} gives it) is a cluster of node processes, whichever transport. */
    public static boolean isCluster(String name) {
        return name.startsWith(CLUSTER);
    }

    public boolean isOracle() {
        return name.equals("duckdb");
    }

    public SltRunner.Options options(int queryTimeoutSeconds) {
        // Records name the cluster, whichever transport carries its rows.
        String recordsTarget = isCluster(name) ? CLUSTER : name;
        return new SltRunner.Options(recordsTarget, !isOracle(), !isOracle(), queryTimeoutSeconds, name.endsWith(DURABLE));
    }

    /**
     * This process's folder of durable databases, new on first use: named after the process id alone,
     * a folder left by an earlier run whose id the system reuses would hold its databases already.
     */
    private static synchronized Path durableRoot() {
        if (durableRoot == null) {
            try {
                Path parent = Files.createDirectories(Path.of("target", "sqltest-durable"));
                durableRoot = Files.createTempDirectory(parent, ProcessHandle.current().pid() + "-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a folder for durable test databases", e);
            }
        }
        return durableRoot;
    }

    /** A new connection to a new, empty database; {@code hint} becomes part of its name. */
    public Connection open(String hint) throws SQLException {
        return database(hint).connect();
    }

    /** A new, empty database to connect to (again: a durable one keeps its data between connections). */
    public SltRunner.Database database(String hint) {
        if (isOracle()) {
            return () -> DriverManager.getConnection("jdbc:duckdb:");
        }
        String db = "sqltest_" + name + "_" + DATABASES.incrementAndGet() + "_" + hint.replaceAll("[^A-Za-z0-9]+", "_");
        if (name.equals(FLIGHT)) {
            return () -> FlightConnections.open(db);
        }
        if (name.equals(CLUSTER)) {
            return ClusterDatabases.next("flight", "");
        }
        if (name.equals(CLUSTER_UCX)) {
            return ClusterDatabases.next("ucx", COMPRESSED);
        }
        if (name.equals(CLUSTER_UCX_TWO_LEVEL)) {
            return ClusterDatabases.next("ucx", COMPRESSED + TWO_LEVEL);
        }
        Properties p = new Properties();
        p.setProperty("executor", executor());
        String url = name.endsWith(DURABLE)
                ? "jdbc:warpdb:" + durableRoot().resolve(db).toAbsolutePath()
                : "jdbc:warpdb:mem:" + db;
        return () -> DriverManager.getConnection(url, p);
    }

    /**
     * Why this target cannot run here, or null when it can. Probed once: a connection (and a
     * trivial query) with this executor failing with SQLSTATE 22023 means "not available";
     * any other failure is left for the tests to report.
     */
    public synchronized String unavailableReason() {
        if (!probed) {
            probed = true;
            if (!isOracle() && !executor().equals("cpu")) {
                try (Connection c = open("probe"); Statement st = c.createStatement()) {
                    st.execute("SELECT 1");
                } catch (SQLException e) {
                    if (NOT_AVAILABLE_STATE.equals(SltRunner.sqlState(e))) {
                        unavailableReason = "executor '" + name + "' is not available: " + e.getMessage();
                    }
                }
            }
        }
        return unavailableReason;
    }
}
