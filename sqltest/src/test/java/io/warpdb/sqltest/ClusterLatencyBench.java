package io.warpdb.sqltest;

import io.warpdb.jdbc.WarpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Per-statement latency through WarpDB's remote driver: one server (in this process, an
 * in-memory database) against a 3-node {@link LoopbackCluster} of node processes, for statements
 * that do next to no work, so that what is measured is the path of a statement: {@code SELECT 1},
 * {@code SELECT COUNT(*)} of a small distributed table, a one-row INSERT into it, and a CREATE
 * TABLE with its DROP. Prints, per statement, the median, 90th percentile and mean of {@code n}
 * runs after a warm-up of {@code n / 4}.
 *
 * <p>{@code java -cp <sqltest test class path> io.warpdb.sqltest.ClusterLatencyBench [n, default 200]
 * [transports, default flight,ucx]}
 */
public final class ClusterLatencyBench {
    private ClusterLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        List<String> transports = List.of((args.length > 1 ? args[1] : "flight,ucx").split(","));
        try (WarpServer server = WarpServer.start("127.0.0.1", 0, WarpServer.DEFAULT_DATABASE);
                Connection c = DriverManager.getConnection(server.warpdbUrl())) {
            measure("one server", c, n);
        }
        for (String transport : transports) {
            Path dir = Files.createTempDirectory("cluster-latency-");
            try (LoopbackCluster cluster = LoopbackCluster.start(dir, 3, List.of("-Xmx768m"), "transport = " + transport + "\n");
                    Connection c = DriverManager.getConnection(cluster.url(0))) {
                measure("3 nodes over " + transport, c, n);
            }
        }
    }

    private static void measure(String where, Connection c, int n) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE latency_t (k BIGINT, v VARCHAR)");
            s.executeUpdate("INSERT INTO latency_t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')");
            int[] create = {0};
            report(where, "SELECT 1", n, () -> query(s, "SELECT 1"));
            report(where, "SELECT COUNT(*) FROM latency_t", n, () -> query(s, "SELECT COUNT(*) FROM latency_t"));
            report(where, "INSERT INTO latency_t VALUES (7, 'g')", n, () -> s.executeUpdate("INSERT INTO latency_t VALUES (7, 'g')"));
            report(where, "CREATE TABLE latency_<i> (k BIGINT)", n, () -> s.executeUpdate("CREATE TABLE latency_" + create[0]++ + " (k BIGINT)"));
            for (int i = 0; i < create[0]; i++) {
                s.executeUpdate("DROP TABLE latency_" + i);
            }
            s.executeUpdate("DROP TABLE latency_t");
        }
    }

    private static void query(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }

    private interface Run {
        void run() throws SQLException;
    }

    private static void report(String where, String what, int n, Run run) throws SQLException {
        for (int i = 0; i < n / 4; i++) {
            run.run();
        }
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            run.run();
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        System.out.printf(Locale.ROOT, "%-22s %-40s median %7.2f ms  p90 %7.2f ms  mean %7.2f ms%n", where, what, nanos[n / 2] / 1e6,
                nanos[n * 9 / 10] / 1e6, Arrays.stream(nanos).average().orElse(0) / 1e6);
    }
}
