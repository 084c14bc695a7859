package io.warpdb.exec.gpu.plan;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.GpuExecutorProvider;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Queries running at once on the GPU (as a server's clients do), each on its own streams: every
 * answer equals the CPU's. Temporaries one query frees while its kernels are queued must not
 * reach another query's stream before those kernels ran, and cached columns evicted while other
 * queries read them must stay until they are done.
 */
class ConcurrentQueriesTest extends GpuTestBase {
    private static final int THREADS = 16;
    private static final int ROUNDS = 8;

    @Test
    void concurrentPlansGiveTheCpusAnswers() throws Exception {
        GpuTests.assumeGpu();
        Schema facts = Schema.of(new Field("k", DataType.INTEGER), new Field("v", DataType.BIGINT), new Field("s", DataType.VARCHAR));
        Schema dims = Schema.of(new Field("k", DataType.INTEGER), new Field("w", DataType.BIGINT));
        RandomBatches random = new RandomBatches(4242);
        Options options = Options.plain().withDistinct(5000).withNulls(0.05).withSharedPools(4242);
        try (ListSource f = new ListSource(facts, random.generate(facts, 300_000, options, allocator), "facts v1");
                ListSource d = new ListSource(dims, random.generate(dims, 20_000, options, allocator), "dims v1")) {
            List<PlanNode> plans = plans(scan(f), scan(d));
            List<List<List<Object>>> expected = new ArrayList<>();
            for (PlanNode p : plans) {
                expected.add(cpuRows(p));
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
            AtomicBoolean running = new AtomicBoolean(true);
            try {
                // Evicts the cached columns again and again, as memory pressure from other queries does.
                Future<?> evictions = pool.submit(() -> {
                    while (running.get()) {
                        GpuExecutorProvider.evictCachedColumns();
                        Thread.sleep(3);
                    }
                    return null;
                });
                List<Future<?>> runs = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int first = t;
                    runs.add(pool.submit(() -> {
                        for (int round = 0; round < ROUNDS; round++) {
                            int i = (first + round) % plans.size();
                            ResultAssert.assertSameRows(expected.get(i), planRows(plans.get(i), "gpu"),
                                    "plan " + i + " in thread " + first + ", round " + round);
                        }
                        return null;
                    }));
                }
                for (Future<?> run : runs) {
                    run.get(5, TimeUnit.MINUTES);
                }
                running.set(false);
                evictions.get(1, TimeUnit.MINUTES);
            } finally {
                running.set(false);
                pool.shutdownNow();
                GpuExecutorProvider.evictCachedColumns();
            }
        }
    }

    /** A join with an aggregate over it, a filtered sort, and a grouped aggregate: many temporaries each. */
    private static List<PlanNode> plans(PlanNode facts, PlanNode dims) {
        Schema joined = Schema.of(new Field("k", DataType.INTEGER), new Field("v", DataType.BIGINT), new Field("s", DataType.VARCHAR),
                new Field("dk", DataType.INTEGER), new Field("w", DataType.BIGINT));
        JoinNode join = new JoinNode(facts, dims, JoinKind.INNER, List.of(0), List.of(0), null, joined);
        AggregateNode byWeight = new AggregateNode(join, List.of(4), List.of(
                new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"),
                new AggCall(AggFunction.SUM, List.of(1), false, DataType.BIGINT, "total")),
                Schema.of(new Field("w", DataType.BIGINT), new Field("n", DataType.BIGINT), new Field("total", DataType.BIGINT)));
        FilterNode big = new FilterNode(facts, Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(1, DataType.BIGINT),
                Literal.ofLong(0, DataType.BIGINT)));
        SortNode sorted = new SortNode(big, List.of(new SortKey(1, true, true), new SortKey(0, false, false)), 0, -1);
        AggregateNode byString = new AggregateNode(facts, List.of(2), List.of(
                new AggCall(AggFunction.MAX, List.of(1), false, DataType.BIGINT, "top"),
                new AggCall(AggFunction.COUNT, List.of(0), false, DataType.BIGINT, "keys")),
                Schema.of(new Field("s", DataType.VARCHAR), new Field("top", DataType.BIGINT), new Field("keys", DataType.BIGINT)));
        return List.of(byWeight, sorted, byString);
    }
}
