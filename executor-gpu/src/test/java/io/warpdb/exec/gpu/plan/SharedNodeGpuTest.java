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
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A shared subplan (an aggregation read by two or three uses: a UNION ALL, a self-join, an
 * aggregation over a filter of it) on the GPU against the CPU executor, on random inputs with
 * NULLs, duplicates and skew; the harness fails on Arrow or device memory left allocated, so the
 * shared device result must be freed with the execution's context.
 */
class SharedNodeGpuTest extends GpuTestBase {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.INTEGER), new Field("v", DataType.BIGINT),
            new Field("s", DataType.VARCHAR));
    private static final Schema GROUPED = Schema.of(new Field("k", DataType.INTEGER), new Field("c", DataType.BIGINT),
            new Field("sv", DataType.BIGINT));

    static List<Integer> sizes() {
        return RandomBatches.SIZES;
    }

    @Test
    void theGpuAcceptsSharedNodesAndTheCpuRunsThem() {
        try (ListSource source = randomSource(new RandomBatches(5), SCHEMA, 100, RandomBatches.Options.plain().withNulls(0.2))) {
            for (PlanNode plan : plans(source)) {
                assertAcceptedByGpu(plan);
                cpuRows(plan);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void sharedResultsMatchTheCpu(int rows) {
        GpuTests.assumeGpu();
        for (RandomBatches.Options options : List.of(RandomBatches.Options.plain().withNulls(0.2).withDistinct(7),
                RandomBatches.Options.plain().withZipf())) {
            RandomBatches random = new RandomBatches(rows * 13L + 5);
            try (ListSource source = randomSource(random, SCHEMA, rows, options)) {
                for (PlanNode plan : plans(source)) {
                    assertSameOnGpu(plan, false, rows + " rows, seed " + random.seed() + ": " + plan.describe());
                }
            }
        }
    }

    /** Plans reading one shared aggregation of the source two or three times. */
    private static List<PlanNode> plans(ListSource source) {
        List<AggCall> calls = List.of(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "c"),
                new AggCall(AggFunction.SUM, List.of(1), false, DataType.BIGINT, "sv"));
        SharedNode shared = new SharedNode(1, new AggregateNode(scan(source), List.of(0), calls, GROUPED));
        UnionNode twice = new UnionNode(List.of(shared, shared), GROUPED);
        JoinNode selfJoin = new JoinNode(shared, shared, JoinKind.INNER, List.of(0), List.of(0), null, GROUPED.concat(GROUPED));
        FilterNode large = new FilterNode(shared, Call.of(Op.GT, DataType.BOOLEAN, new ColumnRef(1, DataType.BIGINT),
                Literal.ofLong(1, DataType.BIGINT)));
        AggregateNode overThree = new AggregateNode(new UnionNode(List.of(shared, large, shared), GROUPED), List.of(0), calls, GROUPED);
        return List.of(shared, twice, selfJoin, overThree);
    }
}
