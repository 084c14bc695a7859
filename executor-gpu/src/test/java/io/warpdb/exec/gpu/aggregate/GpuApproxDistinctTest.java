package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * APPROX_COUNT_DISTINCT on the GPU against the CPU's HyperLogLog sketches: equal estimates, not
 * merely close ones, over every type (doubles with NaN and -0.0 among the extremes, strings from
 * differing dictionaries), without keys and grouped by every path, at the harness's sizes: groups
 * counted exactly (at most SPARSE_LIMIT distinct values) and groups estimated from registers
 * (100,003 unbounded values; a Zipf-skewed key whose hot groups have thousands of distinct values
 * beside cold ones of a few), with NULLs, duplicates and groups of only NULLs.
 */
class GpuApproxDistinctTest extends GpuTestBase {
    private static final Schema SCHEMA = schema();

    /** Key k (VARCHAR), then one argument column of every type the harness generates. */
    private static Schema schema() {
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("k", DataType.VARCHAR));
        List<DataType> types = RandomBatches.allTypes();
        for (int i = 0; i < types.size(); i++) {
            fields.add(new Field("c" + i, types.get(i)));
        }
        return new Schema(fields);
    }

    @Test
    void theGpuAcceptsApproxCountDistinctOfEveryType() {
        try (ListSource source = randomSource(new RandomBatches(1), SCHEMA, 10, Options.plain())) {
            for (int keys = 0; keys <= 1; keys++) {
                assertEquals(Support.YES, GpuAggregate.supports(node(source, keys)));
            }
        }
    }

    @Test
    void estimatesEqualTheCpusOnEveryPath() {
        GpuTests.assumeGpu();
        List<Options> options = List.of(Options.plain().withNulls(0.1), Options.plain().withDistinct(30).withNulls(0.2),
                Options.plain().withExtremes().withNulls(0.05).withVaryingDictionaries(), Options.plain().withZipf().withDistinct(5000));
        for (Options o : options) {
            RandomBatches random = new RandomBatches(110);
            for (int rows : RandomBatches.SIZES) {
                try (ListSource source = randomSource(random, SCHEMA, rows, o)) {
                    for (AggregationPath path : new AggregationPath[] {AggregationPath.UNGROUPED, AggregationPath.SORT, null}) {
                        AggregateNode node = node(source, path == AggregationPath.UNGROUPED ? 0 : 1);
                        assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                                "seed 110, rows " + rows + ", path " + path + ", " + o);
                    }
                }
            }
        }
    }

    /** A packable key (few distinct strings) on the hash path, with COUNT(DISTINCT) and SUM beside the estimates. */
    @Test
    void besideOtherAggregatesOnTheHashPath() {
        GpuTests.assumeGpu();
        Schema s = Schema.of(new Field("k", DataType.VARCHAR), new Field("b", DataType.BIGINT), new Field("d", DataType.DOUBLE));
        RandomBatches random = new RandomBatches(111);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, s, rows, Options.plain().withNulls(0.1))) {
                List<AggCall> calls = List.of(new AggCall(AggFunction.APPROX_COUNT_DISTINCT, List.of(1), false, DataType.BIGINT, "a1"),
                        new AggCall(AggFunction.COUNT, List.of(1), true, DataType.BIGINT, "cd1"),
                        new AggCall(AggFunction.APPROX_COUNT_DISTINCT, List.of(2), false, DataType.BIGINT, "a2"),
                        new AggCall(AggFunction.SUM, List.of(2), false, DataType.DOUBLE, "s2"));
                List<Field> out = new ArrayList<>(List.of(s.field(0)));
                calls.forEach(c -> out.add(new Field(c.name(), c.type())));
                // A key of a random string per row: unique groups, each counted exactly.
                AggregateNode node = new AggregateNode(scan(source), List.of(0), calls, new Schema(out));
                assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, AggregationPath.HASH), false,
                        "seed 111, rows " + rows);
                assertSameOnGpu(node, false, "whole plan, seed 111, rows " + rows);
            }
        }
    }

    /** APPROX_COUNT_DISTINCT of every argument column, with COUNT(*); keys: column k when {@code keyCount} is 1. */
    private static AggregateNode node(ListSource source, int keyCount) {
        List<AggCall> calls = new ArrayList<>();
        calls.add(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"));
        for (int c = 1; c < SCHEMA.size(); c++) {
            calls.add(new AggCall(AggFunction.APPROX_COUNT_DISTINCT, List.of(c), false, DataType.BIGINT, "approx" + c));
        }
        List<Field> out = new ArrayList<>();
        List<Integer> keys = keyCount == 0 ? List.of() : List.of(0);
        keys.forEach(k -> out.add(SCHEMA.field(k)));
        calls.forEach(c -> out.add(new Field(c.name(), c.type())));
        return new AggregateNode(scan(source), keys, calls, new Schema(out));
    }
}
