package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.tpch.ClusterLoader;
import io.warpdb.tpch.JdbcTarget;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.SuiteRunner;
import io.warpdb.tpch.TblFiles;
import io.warpdb.tpch.TpchGenerator;
import io.warpdb.tpch.TpchLoader;
import io.warpdb.tpch.TpchQueries;
import io.warpdb.tpch.TpchSchema;
import io.warpdb.tpch.WarpDbTarget;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries on a 3-node cluster of {@code warpdb node} processes on loopback, over Arrow
 * Flight and over UCX (rows compressed), loaded by COPY of the dbgen files through one node (the fact
 * tables and their big dimensions hashed on their keys, nation and region replicated), each answer
 * equal to one WarpDB's on the same files; joins off the distribution keys move rows between the
 * shards. SF 0.1 in the test command, whose time on 2 cores SF 1 would exceed ({@code
 * -Dcluster.tpch.sf=1} runs SF 1; {@code -Dcluster.tpch.transports=ucx} one transport).
 */
class ClusterTpchTest {
    /** 0.1 in the test command; {@code -Dcluster.tpch.sf=1} for a longer run. */
    private static final double SCALE_FACTOR = Double.parseDouble(System.getProperty("cluster.tpch.sf", "0.1"));

    @TempDir
    Path dir;

    static Stream<String> transports() {
        String property = System.getProperty("cluster.tpch.transports", "flight,ucx");
        return Arrays.stream(property.split(",")).map(String::strip).filter(t -> !t.isEmpty());
    }

    @ParameterizedTest(name = "transport = {0}")
    @MethodSource("transports")
    void allQueriesAnswerAsOneNode(String transport) throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        Path tbl = dir.resolve("tbl");
        TblFiles.write(new TpchGenerator(SCALE_FACTOR), tbl, threads);
        List<SuiteRunner.Outcome> outcomes;
        try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), 3, List.of(SCALE_FACTOR < 1 ? "-Xmx1g" : "-Xmx2g"), "transport = " + transport + "\n");
                Database single = Database.inMemory("tpch_single");
                WarpDbTarget reference = new WarpDbTarget(single, "cpu");
                Connection c = DriverManager.getConnection(cluster.url(1))) {
            TpchLoader.load(single, new TblFiles(tbl), threads);
            ClusterLoader.loadMissing(c, tbl, TpchSchema.tables());
            QueryTarget clustered = new JdbcTarget("WarpDB cluster of 3", c);
            outcomes = new SuiteRunner(clustered, reference).runAll(TpchQueries.all(), System.out);
            // joins off the distribution keys (customer-orders, part-lineitem, supplier-nation-...) move rows between the
            // shards, repartitioned or broadcast, instead of gathering both sides here
            for (int q : List.of(3, 5, 9, 10, 18)) {
                String plan = explainAnalyze(c, TpchQueries.get(q).sql());
                System.out.println("Q" + q + " on 3 nodes:\n" + plan);
                assertTrue(plan.contains("(repartitioned)") || plan.contains("(broadcast)"), "Q" + q + " moves no rows between shards:\n" + plan);
            }
            // two large sides, neither on its distribution key: both repartitioned, the answer one node's
            String large = "SELECT COUNT(*), SUM(b.o_totalprice) FROM orders a JOIN orders b ON a.o_custkey = b.o_custkey"
                    + " AND a.o_orderdate = b.o_orderdate";
            String plan = explainAnalyze(c, large);
            assertTrue(plan.contains("(repartitioned)"), plan);
            assertEquals(reference.query(large).rows(), clustered.query(large).rows(), large);
        }
        String failures = outcomes.stream().filter(o -> !o.ok()).map(SuiteRunner.Outcome::format).collect(Collectors.joining("\n"));
        assertTrue(SuiteRunner.allOk(outcomes), "TPC-H SF " + SCALE_FACTOR + " on 3 nodes over " + transport + ": queries failing:\n"
                + failures);
    }

    private static String explainAnalyze(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + sql)) {
            StringBuilder lines = new StringBuilder();
            while (rs.next()) {
                lines.append(rs.getString(1)).append('\n');
            }
            return lines.toString();
        }
    }
}
