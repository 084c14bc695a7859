package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Aggregations that mix DISTINCT aggregates over different arguments with plain ones (TPC-DS
 * q16/q94/q95: COUNT(DISTINCT order), SUM(cost), SUM(profit); q28: AVG(p), COUNT(p),
 * COUNT(DISTINCT p); a variance of the distinct values; COUNT(DISTINCT a, b) and COUNT(a, b) of
 * several columns) on the GPU against the CPU, without GROUP BY and grouped by either path, at the
 * harness's sizes with NULLs, duplicates, skew and extremes.
 */
class MixedDistinctAggregatesTest extends GpuTestBase {
    private static final DataType MONEY = DataType.decimal(12, 2);
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.VARCHAR), new Field("o", DataType.INTEGER),
            new Field("p", MONEY), new Field("c", MONEY), new Field("x", DataType.DOUBLE));

    /** The mixes the GPU runs: each a list of aggregates over SCHEMA. */
    static List<List<AggCall>> mixes() {
        return List.of(
                List.of(call(AggFunction.COUNT, 1, true, DataType.BIGINT), call(AggFunction.SUM, 3, false, DataType.decimal(18, 2)),
                        call(AggFunction.SUM, 2, false, DataType.decimal(18, 2))),
                List.of(call(AggFunction.AVG, 2, false, DataType.decimal(18, 4)), call(AggFunction.COUNT, 2, false, DataType.BIGINT),
                        call(AggFunction.COUNT, 2, true, DataType.BIGINT)),
                List.of(call(AggFunction.COUNT, 1, true, DataType.BIGINT), call(AggFunction.SUM, 2, true, DataType.decimal(18, 2)),
                        call(AggFunction.MIN, 4, true, DataType.DOUBLE), new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT,
                                "n"), call(AggFunction.AVG, 1, true, DataType.DOUBLE), call(AggFunction.MAX, 0, false, DataType.VARCHAR)),
                List.of(call(AggFunction.VAR_SAMP, 4, true, DataType.DOUBLE), call(AggFunction.STDDEV_POP, 2, true, DataType.DOUBLE),
                        call(AggFunction.COUNT, 4, true, DataType.BIGINT), call(AggFunction.VAR_POP, 4, false, DataType.DOUBLE),
                        call(AggFunction.COUNT, 0, true, DataType.BIGINT)),
                List.of(new AggCall(AggFunction.COUNT, List.of(1, 2), true, DataType.BIGINT, "cd12"),
                        new AggCall(AggFunction.COUNT, List.of(1, 2), false, DataType.BIGINT, "c12"),
                        new AggCall(AggFunction.COUNT, List.of(0, 1, 4), true, DataType.BIGINT, "cd014"),
                        call(AggFunction.SUM, 3, false, DataType.decimal(18, 2)), call(AggFunction.COUNT, 1, true, DataType.BIGINT)));
    }

    @Test
    void theGpuRunsMixesWithAndWithoutKeys() {
        try (ListSource source = randomSource(new RandomBatches(4), SCHEMA, 40, Options.plain().withNulls(0.2).withDistinct(6))) {
            for (List<AggCall> calls : mixes()) {
                for (List<Integer> keys : List.of(List.<Integer>of(), List.of(0), List.of(0, 1))) {
                    AggregateNode node = node(source, keys, calls);
                    assertEquals(Support.YES, GpuAggregate.supports(node), keys + " " + calls);
                    cpuRows(node);
                }
            }
            AggCall severalColumns = new AggCall(AggFunction.SUM, List.of(1, 2), true, DataType.BIGINT, "sd12");
            assertFalse(GpuAggregate.supports(node(source, List.of(), List.of(severalColumns))).supported());
        }
    }

    @Test
    void mixesMatchTheCpu() {
        GpuTests.assumeGpu();
        RandomBatches random = new RandomBatches(95);
        for (Options options : List.of(Options.plain().withNulls(0.15).withDistinct(40), Options.plain().withZipf().withDistinct(12),
                Options.plain().withNulls(0.1).withExtremes())) {
            for (int rows : RandomBatches.SIZES) {
                try (ListSource source = randomSource(random, SCHEMA, rows, options)) {
                    for (List<AggCall> calls : mixes()) {
                        for (AggregationPath path : new AggregationPath[] {AggregationPath.UNGROUPED, AggregationPath.HASH,
                                AggregationPath.SORT}) {
                            List<Integer> keys = path == AggregationPath.UNGROUPED ? List.of() : List.of(0);
                            AggregateNode node = node(source, keys, calls);
                            assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                                    "seed 95, rows " + rows + ", " + options + ", path " + path + ", " + calls);
                        }
                    }
                }
            }
        }
    }

    private static AggCall call(AggFunction f, int arg, boolean distinct, DataType type) {
        return new AggCall(f, List.of(arg), distinct, type, f.name().toLowerCase() + arg + (distinct ? "d" : ""));
    }

    private static AggregateNode node(ListSource source, List<Integer> keys, List<AggCall> calls) {
        List<Field> out = new ArrayList<>();
        keys.forEach(k -> out.add(SCHEMA.field(k)));
        calls.forEach(c -> out.add(new Field(c.name(), c.type())));
        return new AggregateNode(scan(source), keys, calls, new Schema(out));
    }
}
