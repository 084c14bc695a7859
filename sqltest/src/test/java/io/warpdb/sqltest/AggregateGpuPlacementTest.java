package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The aggregate forms issue 21 wants off the CPU, planned from SQL and checked without a device
 * ({@link GpuExecutorProvider#planSupport}): variances of DOUBLE, BIGINT and DECIMAL(18) values,
 * DISTINCT and plain aggregates mixed under GROUP BY, COUNT(DISTINCT a, b) and APPROX_COUNT_DISTINCT. Every node of
 * each plan must be accepted, so that the gpu targets of the sqltest records run them on the GPU.
 */
class AggregateGpuPlacementTest {
    private static final List<String> QUERIES = List.of(
            "SELECT g, VAR_SAMP(x), VAR_POP(x), STDDEV_SAMP(x), STDDEV_POP(x) FROM t GROUP BY g",
            "SELECT VAR_SAMP(b), STDDEV_POP(b), VAR_POP(m), STDDEV_SAMP(m), VAR_SAMP(w) FROM t",
            "SELECT g, STDDEV_SAMP(b), AVG(m), STDDEV_SAMP(m) FROM t GROUP BY g",
            "SELECT g, COUNT(DISTINCT i), SUM(m), COUNT(*) FROM t GROUP BY g",
            "SELECT g, COUNT(DISTINCT i), COUNT(DISTINCT s), AVG(DISTINCT m), MAX(x) FROM t GROUP BY g",
            "SELECT g, COUNT(DISTINCT i, s) FROM t GROUP BY g",
            "SELECT COUNT(DISTINCT i, s, b), COUNT(*) FROM t",
            "SELECT g, APPROX_COUNT_DISTINCT(i), APPROX_COUNT_DISTINCT(s), APPROX_COUNT_DISTINCT(x), COUNT(DISTINCT b) FROM t GROUP BY g",
            "SELECT APPROX_COUNT_DISTINCT(m), APPROX_COUNT_DISTINCT(b) FILTER (WHERE g > 0) FROM t");

    @Test
    void everyNodeOfTheNewAggregateFormsIsPlacedOnTheGpu() {
        List<String> refused = new ArrayList<>();
        try (Database database = Database.inMemory("aggregate_gpu_placement"); Session session = database.newSession()) {
            try (StatementResult ignored = session.execute("CREATE TABLE t (g INTEGER, i INTEGER, s VARCHAR, b BIGINT, x DOUBLE,"
                    + " m DECIMAL(18,2), w DECIMAL(12,4))", List.of())) {
                // the queries' table
            }
            for (String sql : QUERIES) {
                List<PlanNode> nodes = new ArrayList<>();
                collect(QueryPlans.of(session, sql, List.of()).orElseThrow().plan(), nodes);
                for (PlanNode node : nodes) {
                    Support support = GpuExecutorProvider.planSupport(node);
                    if (!support.supported()) {
                        refused.add(sql + " -- " + node.describe() + ": " + support.reason());
                    }
                }
            }
        }
        assertEquals(List.of(), refused);
    }

    private static void collect(PlanNode node, List<PlanNode> out) {
        out.add(node);
        node.inputs().forEach(input -> collect(input, out));
    }
}
