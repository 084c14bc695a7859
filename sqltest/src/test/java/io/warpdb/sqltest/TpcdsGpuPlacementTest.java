package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.tpcds.TpcdsQueries;
import io.warpdb.tpcds.TpcdsQuery;
import io.warpdb.tpcds.TpcdsSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which nodes of the 99 TPC-DS plans the GPU executor would refuse, and why, on any machine (no
 * device needed: {@link GpuExecutorProvider#planSupport} is what placement asks where a device is
 * present). Prints every refusal grouped by reason. None is left (issue 21's goal for executor=gpu):
 * every node of every plan, windows included, must be accepted, so that what the GPU learned to run
 * (constant date casts, string CASE/COALESCE, VALUES, mixed DISTINCT aggregates, string comparisons
 * in joins, CONCAT of columns, ABS, ROUND, STDDEV_SAMP) stays accepted.
 */
class TpcdsGpuPlacementTest {
    @Test
    void everyNodeOfEveryTpcdsPlanIsPlacedOnTheGpu() {
        Map<String, List<String>> byReason = new TreeMap<>();
        int windows = 0;
        try (Database database = Database.inMemory("tpcds_gpu_placement"); Session session = database.newSession()) {
            for (TpcdsSchema.Table table : TpcdsSchema.tables()) {
                database.catalog().create(table.name(), table.schema(), false);
            }
            for (TpcdsQuery query : TpcdsQueries.all()) {
                PlanNode plan = QueryPlans.of(session, query.sql(), List.of()).orElseThrow().plan();
                List<PlanNode> nodes = new ArrayList<>();
                collect(plan, nodes);
                for (PlanNode node : nodes) {
                    Support support = GpuExecutorProvider.planSupport(node);
                    windows += node instanceof WindowNode ? 1 : 0;
                    if (!support.supported()) {
                        String name = node.getClass().getSimpleName();
                        byReason.computeIfAbsent(name + ": " + support.reason(), r -> new ArrayList<>()).add(query.name());
                    }
                }
            }
        }
        StringBuilder report = new StringBuilder("TPC-DS nodes the GPU executor refuses (" + windows + " window nodes planned):");
        byReason.forEach((reason, queries) -> report.append("\n  ").append(reason).append(" -- ").append(queries));
        System.out.println(report);
        assertEquals(Map.of(), byReason, report.toString());
    }

    private static void collect(PlanNode node, List<PlanNode> out) {
        out.add(node);
        node.inputs().forEach(input -> collect(input, out));
    }
}
