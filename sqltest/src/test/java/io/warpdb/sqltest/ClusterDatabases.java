package io.warpdb.sqltest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code cluster}, {@code cluster-ucx} and {@code cluster-ucx-two-level} targets' databases: per
 * transport and settings (Arrow Flight; UCX with the rows compressed; that with the two-level shuffle) one 3-node {@link LoopbackCluster} for the whole test run (started on
 * first use, stopped when the JVM exits), whose one database every script gets
 * emptied: before a script's first connection every table is dropped. Scripts take the nodes in
 * turn, so each node coordinates some of them.
 */
final class ClusterDatabases {
    static final int NODES = 3;

    private static final Map<String, LoopbackCluster> CLUSTERS = new HashMap<>();
    private static final AtomicInteger SCRIPTS = new AtomicInteger();

    private ClusterDatabases() {
    }

    private static synchronized LoopbackCluster cluster(String transport, String settings) {
        String key = transport + settings;
        LoopbackCluster cluster = CLUSTERS.get(key);
        if (cluster == null) {
            try {
                Path parent = Files.createDirectories(Path.of("target", "sqltest-cluster"));
                Path dir = Files.createTempDirectory(parent, ProcessHandle.current().pid() + "-" + transport + "-");
                cluster = LoopbackCluster.start(dir, NODES, LoopbackCluster.smallNode("768m"), "transport = " + transport + "\n" + settings);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a folder for the cluster's nodes", e);
            }
            CLUSTERS.put(key, cluster);
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "sqltest-cluster-stop"));
        }
        return cluster;
    }

    /**
     * An emptied database on the next node in turn of the cluster whose rows travel over {@code
     * transport} (flight, ucx), with {@code settings} (cluster.properties lines) added.
     */
    static SltRunner.Database next(String transport, String settings) {
        LoopbackCluster nodes = cluster(transport, settings);
        String url = nodes.url(SCRIPTS.getAndIncrement() % nodes.size());
        boolean[] emptied = {false};
        return () -> {
            Connection c = DriverManager.getConnection(url);
            if (!emptied[0]) {
                emptied[0] = true;
                dropAllTables(c);
            }
            return c;
        };
    }

    private static void dropAllTables(Connection c) throws SQLException {
        List<String> tables = new ArrayList<>();
        try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                tables.add(rs.getString("TABLE_NAME"));
            }
        }
        try (Statement s = c.createStatement()) {
            for (String table : tables) {
                s.executeUpdate("DROP TABLE \"" + table.replace("\"", "\"\"") + "\"");
            }
        }
    }
}
