package io.warpdb.tools;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.sql.Database;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import io.warpdb.tpch.TpchGenerator;
import io.warpdb.tpch.TpchLoader;
import io.warpdb.tpch.TpchQueries;
import io.warpdb.tpch.TpchQuery;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every node of the 22 TPC-H queries is placed on the GPU executor. The check needs no device:
 * the planner asks a stand-in that answers what the GPU executor would answer where one is
 * present ({@link GpuExecutorProvider#planSupport}); the GPU run itself is on the H100 (see
 * docs/gpu-test-report.md).
 */
class TpchGpuPlacementTest {
    /** The executor bracket EXPLAIN ends a line with: {@code [gpu]}, or with how, e.g. {@code [gpu: hash join]}. */
    private static final Pattern ON_GPU = Pattern.compile("\\[gpu(: [^\\]]+)?\\]$");

    private static Database database;
    private static Session session;

    @BeforeAll
    static void load() {
        database = Database.inMemory("tpch-placement", new ExecutorRegistry(List.of(new CpuExecutorProvider(), new PlanOnlyGpu())));
        TpchLoader.load(database, new TpchGenerator(0.01), 2);
        session = database.newSession();
        session.setExecutor("gpu");
    }

    @AfterAll
    static void close() {
        session.close();
        database.close();
    }

    static List<TpchQuery> queries() {
        return TpchQueries.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void everyNodeIsOnTheGpu(TpchQuery query) {
        List<String> plan = explain(query.sql());
        List<String> onCpu = plan.stream().filter(line -> !ON_GPU.matcher(line).find()).toList();
        assertTrue(onCpu.isEmpty(), query.name() + " has nodes off the GPU:\n" + String.join("\n", onCpu)
                + "\nwhole plan:\n" + String.join("\n", plan));
    }

    private static List<String> explain(String sql) {
        try (StatementResult r = session.execute("explain " + sql, List.of())) {
            return r.rows().stream().map(row -> (String) row.get(0)).toList();
        }
    }

    /** Plans like the GPU executor on a machine with a device; never asked to run anything. */
    private static final class PlanOnlyGpu implements ExecutorProvider {
        @Override
        public String name() {
            return "gpu";
        }

        @Override
        public Support availability() {
            return Support.YES;
        }

        @Override
        public Support supports(PlanNode node) {
            return GpuExecutorProvider.planSupport(node);
        }

        @Override
        public BatchStream execute(PlanNode plan, ExecContext context) {
            throw new UnsupportedOperationException("plans only");
        }
    }
}
