package io.warpdb.exec.gpu.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.StorageOptions;
import io.warpdb.storage.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable table about three times the device budget: the filters and projections over its scan
 * stream its stored segments through the device chunk by chunk, and every plan over them equals
 * the CPU executor's answer on the GPU: a filtered projection at the root (its rows copied in
 * again), an aggregation without keys and one with keys over the chain (out of core), and a join
 * of the filtered table with a small one.
 */
class StreamedChainTest extends GpuTestBase {
    private static final long BUDGET = 1 << 20;
    private static final int ROWS = 60_000;
    private static final Schema FACTS = Schema.of(new Field("k", DataType.BIGINT), new Field("g", DataType.INTEGER),
            new Field("price", DataType.decimal(12, 2)), new Field("s", DataType.VARCHAR), new Field("x", DataType.DOUBLE));
    private static final Schema DIMS = Schema.of(new Field("g", DataType.INTEGER), new Field("label", DataType.VARCHAR));

    @TempDir
    Path dir;
    private Catalog durable;
    private ScanNode facts;
    private ScanNode dims;

    @BeforeEach
    void load() {
        GpuTests.assumeGpu();
        GpuExecutorProvider.evictCachedColumns();
        durable = Catalog.open(dir, allocator, StorageOptions.defaults().withSegmentRows(1000));
        Options options = Options.plain().withDistinct(500).withNulls(0.05).withVaryingDictionaries().withSharedPools(77);
        facts = scanAll(fill(durable.create("facts", FACTS, false), new RandomBatches(3001).generate(FACTS, ROWS, options, allocator)));
        dims = scanAll(fill(durable.create("dims", DIMS, false), new RandomBatches(3002).generate(DIMS, 400, options, allocator)));
    }

    @AfterEach
    void close() {
        GpuExecutorProvider.evictCachedColumns();
        if (durable != null) {
            durable.close();
        }
    }

    @Test
    void filteredProjectionAtTheRootStreamsAndIsCopiedInAgain() {
        FilterNode filter = new FilterNode(facts, Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, col(4, DataType.DOUBLE)));
        ProjectNode project = new ProjectNode(filter, List.of(col(1, DataType.INTEGER)), Schema.of(FACTS.field(1)));
        NodeStats stats = assertSameOnGpuWithBudget(project, BUDGET, "g where x is not null");
        assertStreamed(stats);
    }

    @Test
    void aggregationsOverTheChainRunOutOfCore() {
        FilterNode filter = new FilterNode(facts, Call.of(Op.GT, DataType.BOOLEAN, col(0, DataType.BIGINT),
                Literal.ofLong(0, DataType.BIGINT)));
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "total"),
                new AggCall(AggFunction.MIN, List.of(3), false, DataType.VARCHAR, "first"),
                new AggCall(AggFunction.MAX, List.of(4), false, DataType.DOUBLE, "largest"));
        Schema ungroupedSchema = Schema.of(new Field("n", DataType.BIGINT), new Field("total", DataType.decimal(18, 2)),
                new Field("first", DataType.VARCHAR), new Field("largest", DataType.DOUBLE));
        AggregateNode ungrouped = new AggregateNode(filter, List.of(), calls, ungroupedSchema);
        ExecContext context = assertRuns(ungrouped, "aggregates of k > 0");
        assertStreamed(context.stats(filter));
        assertNote(context.stats(ungrouped), "out-of-core chunked aggregation: ");

        Schema groupedSchema = Schema.of(FACTS.field(1), new Field("n", DataType.BIGINT), new Field("total", DataType.decimal(18, 2)),
                new Field("first", DataType.VARCHAR), new Field("largest", DataType.DOUBLE));
        AggregateNode grouped = new AggregateNode(filter, List.of(1), calls, groupedSchema);
        context = assertRuns(grouped, "aggregates of k > 0 by g");
        assertStreamed(context.stats(filter));
        assertNote(context.stats(grouped), "out-of-core partitioned aggregation: ");
    }

    @Test
    void aggregationsOfTheStreamedChunksMergePartialStates() {
        FilterNode filter = new FilterNode(facts, Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, col(2, DataType.decimal(12, 2))));
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                new AggCall(AggFunction.SUM, List.of(2), false, DataType.decimal(18, 2), "total"),
                new AggCall(AggFunction.AVG, List.of(2), false, DataType.decimal(18, 4), "mean"),
                new AggCall(AggFunction.MIN, List.of(4), false, DataType.DOUBLE, "least"),
                new AggCall(AggFunction.COUNT, List.of(1), false, DataType.BIGINT, "gs"));
        Schema schema = Schema.of(new Field("n", DataType.BIGINT), new Field("total", DataType.decimal(18, 2)),
                new Field("mean", DataType.decimal(18, 4)), new Field("least", DataType.DOUBLE), new Field("gs", DataType.BIGINT));
        AggregateNode ungrouped = new AggregateNode(filter, List.of(), calls, schema);
        ExecContext context = assertRuns(ungrouped, "aggregates where price is not null");
        assertNote(context.stats(ungrouped), "aggregated chunk by chunk as the input streamed: ");
        assertStreamed(context.stats(filter));

        // Grouped by g, 500 values over chunks of 1,000 rows: too many groups per chunk, so partitioned instead.
        AggregateNode grouped = new AggregateNode(filter, List.of(1), calls,
                Schema.of(FACTS.field(1), schema.field(0), schema.field(1), schema.field(2), schema.field(3), schema.field(4)));
        context = assertRuns(grouped, "aggregates where price is not null, by g");
        assertNote(context.stats(grouped), "aggregating the streamed chunks as they came was given up");
        assertNote(context.stats(grouped), "out-of-core partitioned aggregation: ");
    }

    @Test
    void joinOfTheFilteredTableRunsOutOfCore() {
        FilterNode filter = new FilterNode(facts, Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, col(3, DataType.VARCHAR)));
        JoinNode join = new JoinNode(filter, dims, JoinKind.INNER, List.of(1), List.of(0), null, FACTS.concat(DIMS));
        ExecContext context = assertRuns(join, "facts with s join dims on g");
        assertStreamed(context.stats(filter));
        assertNote(context.stats(join), "out-of-core hybrid join: ");
    }

    private ExecContext assertRuns(PlanNode plan, String context) {
        return runOnGpuAsOnCpu(plan, BUDGET, false, context);
    }

    private static void assertStreamed(NodeStats stats) {
        assertEquals("gpu", stats.executor(), "notes " + stats.notes());
        assertNote(stats, "out-of-core scan pipeline: ");
    }

    private static void assertNote(NodeStats stats, String prefix) {
        assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith(prefix)), "a note starting '" + prefix + "': " + stats.notes());
    }

    private static Table fill(Table table, List<Batch> batches) {
        for (Batch b : batches) {
            try (BatchStream stream = Batches.of(table.schema(), List.of(b))) {
                table.append(stream);
            }
        }
        return table;
    }

    private static ScanNode scanAll(Table table) {
        var source = table.snapshot();
        return new ScanNode(source, IntStream.range(0, source.schema().size()).boxed().toList(), source.schema(), List.of());
    }

    private static Expr col(int i, DataType type) {
        return new ColumnRef(i, type);
    }
}
