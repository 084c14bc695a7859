package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.ExecutorRefused;
import io.warpdb.core.exec.ExecutorRegistry;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Plans split over two executors: the CPU and {@link TestFilterExecutor}, which runs only filters. */
class MixedPlacementTest {
    private static final String REFUSED = "[cpu; testfilter cannot run it: it runs filters only]";

    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("mixed");
        session = db.newSession();
        update("create table t (id integer not null, grp integer)");
        update("insert into t values (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5), (10, 5)");
        update("create table g (grp integer, label varchar(5))");
        update("insert into g values (1, 'one'), (2, 'two'), (3, 'three')");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close();
    }

    @Test
    void explainShowsEachNodesExecutorAndWhyOthersStayOnTheCpu() {
        update("set executor = testfilter");
        List<String> plan = lines("explain select id * 2 from t where id <= 3");
        assertEquals(3, plan.size(), plan.toString());
        assertTrue(plan.get(0).startsWith("Project(") && plan.get(0).endsWith(REFUSED), plan.toString());
        assertTrue(plan.get(1).startsWith("  Filter(") && plan.get(1).endsWith("  [testfilter]"), plan.toString());
        assertTrue(plan.get(2).startsWith("    Scan(table=t") && plan.get(2).endsWith(REFUSED), plan.toString());
    }

    @Test
    void scansFollowTheirParentsExecutor() {
        update("set executor = testfilter");
        List<String> plan = lines("explain select id + 1 from t");
        assertTrue(plan.get(0).endsWith(REFUSED), plan.toString());
        assertTrue(plan.get(plan.size() - 1).endsWith("  [cpu]"), "a scan under the cpu is not offered elsewhere: " + plan);
    }

    @Test
    void answersDoNotDependOnPlacement() {
        List<String> queries = List.of(
                "select id from t where id <= 3 order by id",
                "select t.id, g.label from t join g on t.grp = g.grp where t.id > 2 and g.label <> 'one' order by t.id",
                "select grp, count(*) from (select * from t where id % 2 = 0) s where grp > 1 group by grp order by grp",
                "select id from t where id < 3 union all select grp from g where grp > 2");
        for (String sql : queries) {
            update("set executor = cpu");
            List<List<Object>> onCpu = query(sql);
            update("set executor = testfilter");
            assertEquals(onCpu, query(sql), sql);
        }
        assertEquals(List.of(List.of(1), List.of(2), List.of(3)), query("select id from t where id <= 3 order by id"));
    }

    @Test
    void explainAnalyzeShowsWhatEachNodeDid() {
        update("set executor = testfilter");
        List<String> plan = lines("explain analyze select id * 2 from t where id <= 3");
        assertEquals(3, plan.size(), plan.toString());
        assertTrue(plan.get(0).matches("Project\\(.*\\)  \\Q" + REFUSED + "\\E rows=3 time=\\d+\\.\\d ms"), plan.toString());
        assertTrue(plan.get(1).matches("  Filter\\(.*\\)  \\[testfilter] rows=3 time=\\d+\\.\\d ms"), plan.toString());
        assertTrue(plan.get(2).matches("    Scan\\(table=t.*\\)  \\Q" + REFUSED + "\\E rows=10 time=\\d+\\.\\d ms"), plan.toString());

        update("set executor = cpu");
        List<String> onCpu = lines("explain analyze select count(*) from t where id > 8");
        assertTrue(onCpu.stream().allMatch(l -> l.contains("  [cpu] rows=")), onCpu.toString());
        assertTrue(onCpu.get(0).contains(" rows=1 "), onCpu.toString());
        assertTrue(onCpu.get(onCpu.size() - 1).contains(" rows=10 "), onCpu.toString());
    }

    @Test
    void explainAnalyzeRejectsDml() {
        WarpException e = assertThrows(WarpException.class, () -> update("explain analyze insert into t values (11, 6)"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.state());
        assertEquals(List.of(List.of(10L)), query("select count(*) from t"), "nothing was inserted");
    }

    @Test
    void runOnOverridesThePlacementOfOneNodeOnly() {
        ValuesNode values = values(10);
        FilterNode inner = new FilterNode(values, compare(Op.LE, 6));
        FilterNode outer = new FilterNode(inner, compare(Op.GT, 2));
        Map<PlanNode, String> placement = new IdentityHashMap<>(Map.of(outer, "testfilter", inner, "testfilter", values, "cpu"));
        try (BufferAllocator allocator = db.allocator().newChildAllocator("test", 0, Long.MAX_VALUE)) {
            ExecContext context = new ExecContext(allocator, ExecutorRegistry.load(), placement);
            assertEquals(4, drain(context.runOn("cpu", outer)));
            assertEquals("cpu", context.stats(outer).executor());
            assertEquals(4, context.stats(outer).rows());
            assertEquals("testfilter", context.stats(inner).executor(), "inputs still follow the placement");
            assertEquals(6, context.stats(inner).rows());
            assertEquals("cpu", context.stats(values).executor());
            assertEquals(10, context.stats(values).rows());
            assertEquals(3, context.allStats().size());
        }
    }

    @Test
    void runMeasuresNodesWhoseExecutorRecordsNothing() {
        ValuesNode values = values(7);
        // The CPU's operators, recording into a context of their own.
        ExecutorProvider silent = provider("silent", Support.YES,
                (plan, context) -> new CpuExecutorProvider().execute(plan, new ExecContext(context.allocator())));
        ExecutorRegistry registry = new ExecutorRegistry(List.of(new CpuExecutorProvider(), silent));
        try (BufferAllocator allocator = db.allocator().newChildAllocator("test", 0, Long.MAX_VALUE)) {
            ExecContext context = new ExecContext(allocator, registry, Map.of());
            assertNull(context.executorFor(values));
            assertEquals(7, drain(context.runOn("silent", values)));
            NodeStats measured = context.stats(values);
            assertEquals("silent", measured.executor());
            assertEquals(7, measured.rows());
            assertTrue(measured.wallNanos() > 0);

            ExecContext recorded = new ExecContext(allocator, registry, Map.of(values, "cpu"));
            assertEquals(7, drain(recorded.run(values)));
            assertEquals(7, recorded.stats(values).rows(), "counted once although both the cpu and run() measure");
        }
    }

    @Test
    void anUnavailableExecutorLeavesThePlanOnTheCpuAndSaysWhy() {
        ExecutorProvider down = provider("down", Support.no("no device"), (plan, context) -> {
            throw new AssertionError("never placed");
        });
        FilterNode filter = new FilterNode(values(3), compare(Op.GT, 1));
        Placement placement = Placement.of(filter, "down", new ExecutorRegistry(List.of(new CpuExecutorProvider(), down)));
        assertEquals(List.of("Filter(condition=GT($0, 1))  [cpu; down is not available: no device]", "  Values(rows=3)  [cpu]"),
                placement.explain(filter));
        assertEquals(Map.of(filter, "cpu", filter.input(), "cpu"), placement.executors());
    }

    @Test
    void aNodeItsExecutorRefusesFallsBackOnTheCpuAndSaysSo() {
        ExecutorProvider refuser = provider("refuser", Support.YES, (plan, context) -> {
            throw new ExecutorRefused(plan, SqlState.OUT_OF_MEMORY, "refuser out of memory (test)", null);
        });
        FilterNode filter = new FilterNode(values(5), compare(Op.GT, 1));
        ExecutorRegistry registry = new ExecutorRegistry(List.of(new CpuExecutorProvider(), refuser));
        Placement placement = Placement.of(filter, "refuser", registry);
        assertEquals(Map.of(filter, "refuser", filter.input(), "refuser"), placement.executors());
        assertEquals(Map.of(filter, "cpu", filter.input(), "cpu"), placement.fallbacks());
        try (BufferAllocator allocator = db.allocator().newChildAllocator("test", 0, Long.MAX_VALUE)) {
            ExecContext context = new ExecContext(allocator, registry, placement.executors(), placement.fallbacks());
            assertEquals(4, drain(context.run(filter)));
            // The CPU, running the filter instead, asks for its input where it is placed: refused too, it falls back as well.
            List<String> lines = placement.explainAnalyzed(filter, context::stats);
            String note = "\\Q; refuser out of memory (test): reran on cpu\\E";
            assertTrue(lines.get(0).matches("Filter\\(.*\\)  \\[cpu] rows=4 time=\\d+\\.\\d ms" + note), lines.toString());
            assertTrue(lines.get(1).matches("  Values\\(rows=5\\)  \\[cpu] rows=5 time=\\d+\\.\\d ms" + note), lines.toString());
        }
    }

    @Test
    void explainAnalyzedShowsDeviceTrafficAndItsBandwidthOnlyWhereCounted() {
        FilterNode filter = new FilterNode(values(3), compare(Op.GT, 1));
        Placement placement = Placement.of(filter, "cpu", new ExecutorRegistry(List.of(new CpuExecutorProvider())));
        Map<PlanNode, NodeStats> stats = new IdentityHashMap<>();
        NodeStats top = new NodeStats();
        top.setExecutor("gpu");
        top.addWallNanos(3_000_000);
        top.addKernelNanos(2_000_000);
        top.addDeviceBytesRead(4_000_000_000L);
        top.addDeviceBytesWritten(1_000_000_000L);
        stats.put(filter, top);
        NodeStats below = new NodeStats();
        below.setExecutor("gpu");
        below.addDeviceBytesWritten(500_000);
        stats.put(filter.input(), below);
        List<String> lines = placement.explainAnalyzed(filter, stats::get);
        assertEquals("Filter(condition=GT($0, 1))  [gpu] rows=0 time=3.0 ms kernel=2.0 ms dev_read=4000.0 MB dev_write=1000.0 MB"
                + " dev_bw=2500 GB/s", lines.get(0));
        assertEquals("  Values(rows=3)  [gpu] rows=0 time=0.0 ms dev_read=0.0 MB dev_write=0.5 MB", lines.get(1),
                "no kernel time: no bandwidth");
    }

    /** An executor that supports every node where it is available, running them as {@code execute} says. */
    private static ExecutorProvider provider(String name, Support availability, BiFunction<PlanNode, ExecContext, BatchStream> execute) {
        return new ExecutorProvider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Support availability() {
                return availability;
            }

            @Override
            public Support supports(PlanNode node) {
                return Support.YES;
            }

            @Override
            public BatchStream execute(PlanNode plan, ExecContext context) {
                return execute.apply(plan, context);
            }
        };
    }

    private static ValuesNode values(int rows) {
        Schema schema = Schema.of(new Field("X", DataType.INTEGER.withNullable(false)));
        return new ValuesNode(schema, LongStream.rangeClosed(1, rows)
                .mapToObj(i -> List.of(Literal.ofLong(i, DataType.INTEGER))).toList());
    }

    /** {@code $0 <op> value} over an INTEGER column. */
    private static Call compare(Op op, long value) {
        return Call.of(op, DataType.BOOLEAN, new ColumnRef(0, DataType.INTEGER.withNullable(false)),
                Literal.ofLong(value, DataType.INTEGER));
    }

    /** Pulls every batch, closes the stream, and returns the number of rows. */
    private static long drain(BatchStream stream) {
        long rows = 0;
        try (stream) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                rows += b.rowCount();
                b.close();
            }
        }
        return rows;
    }

    private long update(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.updateCount();
        }
    }

    private List<String> lines(String sql) {
        return query(sql).stream().map(row -> (String) row.get(0)).toList();
    }

    private List<List<Object>> query(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.rows();
        }
    }
}
