package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.ConstantRows;
import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.Literal;
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
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SUM typed DECIMAL(38, s), as the sql layer types a SUM of any DECIMAL, over narrow and wide
 * DECIMALs, AVG, MIN and MAX of wide ones and wide group keys, against the CPU executor on every
 * grouping path: sums beyond 64 bits finished on the device as wide values, wide arguments in two
 * states ({@link WideDecimalAggregation}), wide keys as two keys, 22003 where the CPU raises it.
 */
class GpuWideDecimalAggregateTest extends GpuTestBase {
    private static final AggregationPath[] PATHS = {AggregationPath.HASH, AggregationPath.SORT, null};

    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    /**
     * COUNT(*), and SUM (DECIMAL(38, s)) and AVG (DOUBLE) of every column after the first {@code keyCount},
     * COUNT, MIN and MAX of the wide ones.
     */
    private static AggregateNode node(ListSource source, int keyCount) {
        Schema in = source.schema();
        List<AggCall> calls = new ArrayList<>();
        calls.add(new AggCall(AggFunction.COUNT_STAR, List.of(), false, DataType.BIGINT, "n"));
        for (int c = keyCount; c < in.size(); c++) {
            DataType sum = DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, in.type(c).scale());
            calls.add(new AggCall(AggFunction.SUM, List.of(c), false, sum, "sum" + c));
            calls.add(new AggCall(AggFunction.AVG, List.of(c), false, DataType.DOUBLE, "avg" + c));
            if (in.type(c).isWideDecimal()) {
                calls.add(new AggCall(AggFunction.COUNT, List.of(c), false, DataType.BIGINT, "count" + c));
                calls.add(new AggCall(AggFunction.MIN, List.of(c), false, in.type(c), "min" + c));
                calls.add(new AggCall(AggFunction.MAX, List.of(c), false, in.type(c), "max" + c));
            }
        }
        return GpuAggregateTest.node(source, keyCount, calls);
    }

    private void check(long seed, Schema schema, int keyCount, Options options, AggregationPath path) {
        RandomBatches random = new RandomBatches(seed);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, options)) {
                AggregateNode node = node(source, keyCount);
                assertEquals(Support.YES, GpuAggregate.supports(node));
                assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work, path), false,
                        "seed " + seed + ", rows " + rows + ", path " + path + ", " + options);
            }
        }
    }

    /** DECIMAL(18, 4) and DECIMAL(12, 2) at their limits: sums of 100 K rows need more than 64 bits. */
    @Test
    void narrowDecimalsSummedBeyondSixtyFourBits() {
        Schema s = GpuAggregateTest.schema(DataType.INTEGER, DataType.decimal(18, 4), DataType.decimal(12, 2));
        check(1, s, 0, Options.plain().withExtremes().withNulls(0.05), AggregationPath.UNGROUPED);
        long seed = 2;
        for (AggregationPath path : PATHS) {
            check(seed++, s, 1, Options.plain().withExtremes().withNulls(0.1).withDistinct(5), path);
            check(seed++, s, 1, Options.plain().withDistinct(3000).withZipf(), path);
        }
    }

    /** DECIMAL(30, 4) and DECIMAL(24, 0): both words of every sign, no sum beyond 128 bits. */
    @Test
    void wideDecimalsSummedAndAveraged() {
        Schema s = GpuAggregateTest.schema(DataType.INTEGER, DataType.decimal(30, 4), DataType.decimal(24, 0));
        check(10, s, 0, Options.plain().withExtremes().withNulls(0.05), AggregationPath.UNGROUPED);
        check(11, s, 0, Options.plain(), AggregationPath.UNGROUPED);
        long seed = 12;
        for (AggregationPath path : PATHS) {
            check(seed++, s, 1, Options.plain().withExtremes().withNulls(0.1).withDistinct(4), path);
            check(seed++, s, 1, Options.plain().withDistinct(3000).withZipf().withNulls(0.1), path);
        }
    }

    /** Wide group keys (two keys each: the sort path, their words do not pack), with a narrow one and alone. */
    @Test
    void wideGroupKeys() {
        check(30, GpuAggregateTest.schema(DataType.decimal(38, 2), DataType.decimal(12, 2), DataType.decimal(24, 0)), 1,
                Options.plain().withDistinct(50).withNulls(0.1).withExtremes(), null);
        check(31, GpuAggregateTest.schema(DataType.INTEGER, DataType.decimal(30, 4), DataType.decimal(12, 2)), 2,
                Options.plain().withDistinct(40).withNulls(0.1).withZipf(), AggregationPath.SORT);
    }

    /** Sums of DECIMAL(38, 0) beyond 38 digits, and beyond 128 bits: 22003 as on the CPU, for SUM and AVG. */
    @Test
    void sumsBeyondThirtyEightDigitsFail() {
        DataType wide = DataType.decimal(38, 0);
        BigInteger largest = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
        for (List<BigInteger> values : List.of(List.of(largest, BigInteger.ONE), List.of(largest, largest, largest))) {
            List<List<Literal>> rows = values.stream().map(v -> List.of(new Literal(v, wide))).toList();
            Schema schema = GpuAggregateTest.schema(wide);
            try (ListSource source = new ListSource(schema, List.of(ConstantRows.batch(schema, rows, 0, rows.size(), allocator)))) {
                for (AggFunction f : List.of(AggFunction.SUM, AggFunction.AVG)) {
                    DataType type = f == AggFunction.SUM ? DataType.decimal(38, 0) : DataType.DOUBLE;
                    AggCall call = new AggCall(f, List.of(0), false, type, "s");
                    AggregateNode node = new AggregateNode(scan(source), List.of(), List.of(call), new Schema(List.of(new Field("s", type))));
                    assertSameResult(node, source, (in, work) -> GpuAggregate.run(node, in, work), false, f + " of " + values);
                }
            }
        }
    }
}
