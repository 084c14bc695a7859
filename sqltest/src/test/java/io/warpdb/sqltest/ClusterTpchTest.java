package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.sql.Database;
import io.warpdb.tpch.ClusterLoader;
import io.warpdb.tpch.JdbcTarget;
import io.warpdb.tpch.QueryTarget;
import io.warpdb.tpch.ResultTable;
import io.warpdb.tpch.SuiteRunner;
import io.warpdb.tpch.TblFiles;
import io.warpdb.tpch.TpchGenerator;
import io.warpdb.tpch.TpchLoader;
import io.warpdb.tpch.TpchQueries;
import io.warpdb.tpch.TpchQuery;
import io.warpdb.tpch.TpchSchema;
import io.warpdb.tpch.WarpDbTarget;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The 22 TPC-H queries on a 3-node cluster of {@code warpdb node} processes on loopback, over Arrow
 * Flight and over UCX (rows compressed), loaded by COPY of the dbgen files through one node (the fact
 * tables and their big dimensions hashed on their keys, supplier, nation and region replicated), each answer
 * equal to one WarpDB's on the same files; joins off the distribution keys move rows between the
 * shards. SF 1 ({@code -Dcluster.tpch.sf=0.1} for a shorter run; {@code -Dcluster.tpch.transports=ucx}
 * one transport). The tables declare their primary keys, so that Q10 and Q18 group on a key alone as
 * one node's do. The files and one WarpDB's answers are made once, before the transports' runs; the
 * cluster is loaded over the first transport and restarted on its data over each later one (loads over
 * UCX are {@link ClusterLoopbackTest}'s), since loading SF 1 takes longer than its queries.
 */
@Isolated("computes: runs alone, after the cluster test classes that run side by side")
class ClusterTpchTest {
    /** 1 in the test command; {@code -Dcluster.tpch.sf=0.1} for a shorter run. */
    private static final double SCALE_FACTOR = Double.parseDouble(System.getProperty("cluster.tpch.sf", "1"));
    /** Two large sides, neither on its distribution key: both repartitioned. */
    private static final String LARGE_JOIN = "SELECT COUNT(*), SUM(b.o_totalprice) FROM orders a JOIN orders b ON a.o_custkey = b.o_custkey"
            + " AND a.o_orderdate = b.o_orderdate";

    @TempDir
    static Path dir;

    /** The dbgen files every transport's cluster loads. */
    private static Path tbl;
    /** One WarpDB's answers on those files. */
    private static QueryTarget reference;
    /** The cluster every transport's run queries: started and loaded by the first, restarted over each later one. */
    private static LoopbackCluster cluster;

    static Stream<String> transports() {
        String property = System.getProperty("cluster.tpch.transports", "flight,ucx");
        return Arrays.stream(property.split(",")).map(String::strip).filter(t -> !t.isEmpty());
    }

    /** Writes the files and answers every query on one WarpDB over them, whose database is closed again before the clusters start. */
    @BeforeAll
    static void answerOnOneNode() throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        tbl = dir.resolve("tbl");
        TblFiles.write(new TpchGenerator(SCALE_FACTOR), tbl, threads);
        try (Database single = Database.inMemory("tpch_single");
                WarpDbTarget target = new WarpDbTarget(single, "cpu")) {
            TpchLoader.load(single, new TblFiles(tbl), threads);
            Map<String, ResultTable> answers = new HashMap<>();
            for (TpchQuery query : TpchQueries.all()) {
                answers.put(query.sql(), target.query(query.sql()));
            }
            answers.put(LARGE_JOIN, target.query(LARGE_JOIN));
            String name = target.name() + " on one node";
            reference = new QueryTarget() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public ResultTable query(String sql) {
                    return Objects.requireNonNull(answers.get(sql), sql);
                }
            };
        }
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "transport = {0}")
    @MethodSource("transports")
    void allQueriesAnswerAsOneNode(String transport) throws Exception {
        // compressed on loopback too (by default only between hosts), so that the codec carries TPC-H's rows
        String settings = "transport = " + transport + "\nwire.compression = always\n";
        if (cluster == null) {
            cluster = LoopbackCluster.start(dir.resolve("cluster"), 3, List.of(SCALE_FACTOR < 1 ? "-Xmx1g" : "-Xmx2g"), settings);
        } else {
            cluster.restartAll(settings);
        }
        List<SuiteRunner.Outcome> outcomes;
        try (Connection c = DriverManager.getConnection(cluster.url(1))) {
            ClusterLoader.loadMissing(c, tbl, TpchSchema.tables());
            QueryTarget clustered = new JdbcTarget("WarpDB cluster of 3", c);
            outcomes = new SuiteRunner(clustered, reference).runAll(TpchQueries.all(), System.out);
            // joins off the distribution keys (customer-orders, part-lineitem) move rows between the
            // shards, repartitioned or broadcast, instead of gathering both sides here
            for (int q : List.of(3, 5, 9, 10, 18)) {
                String plan = explainAnalyze(c, TpchQueries.get(q).sql());
                System.out.println("Q" + q + " on 3 nodes:\n" + plan);
                assertTrue(plan.contains("(repartitioned)") || plan.contains("(broadcast)"), "Q" + q + " moves no rows between shards:\n" + plan);
                if (q == 10 || q == 18) {
                    // the tables' primary keys reach the coordinator's planner: Q10 groups on c_custkey alone, Q18 on o_orderkey
                    assertTrue(plan.contains("ANY_VALUE"), "Q" + q + " groups on every column, not on the key alone:\n" + plan);
                }
                if (q == 18) {
                    // the orders that pass the HAVING join where they lie, then move to customer (JoinRotation)
                    assertTrue(!plan.contains("(broadcast)"), "Q18 sends a side to every node:\n" + plan);
                }
                if (q == 10) {
                    // lineitem joins orders where both lie, the revenue rows move to customer (JoinOrder): the
                    // aggregate per customer runs where its rows lie and each shard sends its top 20
                    assertTrue(!plan.contains("(partial aggregate)"), "Q10 merges partial groups on the coordinator:\n" + plan);
                }
                if (q == 9) {
                    // the green parts join partsupp where both lie and that join goes to lineitem (JoinRotation):
                    // one exchange between the shards, lineitem's rows stay
                    assertTrue(!plan.contains("(repartitioned)") && plan.split("\\(broadcast\\)", -1).length == 2,
                            "Q9 moves more than the green parts' partsupp rows:\n" + plan);
                }
            }
            // supplier, nation and region replicated: Q2 joins them where part and partsupp lie, moving no rows
            String q2 = explainAnalyze(c, TpchQueries.get(2).sql());
            assertTrue(!q2.contains("(repartitioned)") && !q2.contains("(broadcast)"), "Q2 moves rows between shards:\n" + q2);
            // Q14's month of lineitem moves to part, not part to every node (the row estimate reads the shipdate range)
            String q14 = explainAnalyze(c, TpchQueries.get(14).sql());
            assertTrue(q14.contains("by murmur3 of [l_partkey]") && !q14.contains("(broadcast)"), "Q14 broadcasts part:\n" + q14);
            // Q15's revenue view, read in its join and under its MAX, runs once on the shards
            String q15 = explainAnalyze(c, TpchQueries.get(15).sql());
            assertEquals(1, q15.split("\\(partial aggregate\\)", -1).length - 1, "Q15 runs its view twice:\n" + q15);
            // two large sides, neither on its distribution key: both repartitioned, the answer one node's
            String plan = explainAnalyze(c, LARGE_JOIN);
            assertTrue(plan.contains("(repartitioned)"), plan);
            assertEquals(reference.query(LARGE_JOIN).rows(), clustered.query(LARGE_JOIN).rows(), LARGE_JOIN);
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
