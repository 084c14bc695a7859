package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.sql.Database;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The window records of the corpus (sql/window/*.test) on the gpu targets, checked without a
 * device: each file's statements run on the CPU, each query is planned, and every window node
 * must be one {@link GpuExecutorProvider#planSupport} accepts, so that the gpu targets run the
 * windows on the GPU, except the calls the GPU leaves to the CPU on purpose (listed here).
 */
class WindowGpuPlacementTest {
    /** Windows the CPU evaluates: a string constant as LAG's default (the result keeps one dictionary). */
    private static final List<String> LEFT_TO_THE_CPU = List.of(
            "sql/window/offset.test: LAG($2, 1, 'none') typed VARCHAR NOT NULL runs on the CPU: its default needs a cast");

    @Test
    void everyWindowOfTheCorpusIsPlacedOnTheGpu() {
        List<String> refused = new ArrayList<>();
        int windows = 0;
        for (Corpus.TestFile file : Corpus.files("sql/window/")) {
            try (Database database = Database.inMemory("window_gpu_placement"); Session session = database.newSession()) {
                for (SltRecord record : file.parse().records()) {
                    if (record instanceof SltRecord.Statement statement && !statement.expectError()) {
                        try (StatementResult ignored = session.execute(statement.sql(), List.of())) {
                            // only the tables the queries read matter
                        }
                    } else if (record instanceof SltRecord.Query query) {
                        Optional<QueryPlans.QueryPlan> plan = planned(session, query.sql());
                        List<PlanNode> nodes = new ArrayList<>();
                        plan.ifPresent(p -> collect(p.plan(), nodes));
                        for (PlanNode node : nodes) {
                            if (node instanceof WindowNode) {
                                windows++;
                                Support support = GpuExecutorProvider.planSupport(node);
                                if (!support.supported()) {
                                    refused.add(file.name() + ": " + support.reason());
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(windows > 30, "window nodes planned: " + windows);
        assertEquals(LEFT_TO_THE_CPU, refused.stream().distinct().toList());
    }

    /** The query's plan; empty where planning fails (records that expect an error). */
    private static Optional<QueryPlans.QueryPlan> planned(Session session, String sql) {
        try {
            return QueryPlans.of(session, sql, List.of());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static void collect(PlanNode node, List<PlanNode> out) {
        out.add(node);
        node.inputs().forEach(input -> collect(input, out));
    }
}
