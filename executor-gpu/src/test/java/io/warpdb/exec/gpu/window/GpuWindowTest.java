package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFunction;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GPU window functions against the CPU executor on random inputs of every edge size (empty, one
 * row, warp and tile edges, many blocks): every function over every frame kind, ties in the order
 * keys, NULL partition and order keys, many tiny partitions, one partition of all rows. Both
 * executors sort stably from the same input order, so even functions that depend on the order
 * of tied rows (ROW_NUMBER, LAG, ROWS frames) must agree.
 */
class GpuWindowTest extends GpuTestBase {
    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    private static Schema schema(DataType partition, DataType order, DataType value) {
        return new Schema(List.of(new Field("p", partition), new Field("o", order), new Field("v", value)));
    }

    /** All functions over {@code value}'s column 2: order-only ones, then the frame ones over {@code frames}. */
    private static List<WindowCall> allCalls(DataType value, List<WindowFrame> frames) {
        List<WindowCall> calls = new ArrayList<>(WindowPlans.orderCalls(2, value));
        for (WindowFrame frame : frames) {
            calls.addAll(WindowPlans.frameCalls(2, value, frame));
        }
        return calls;
    }

    /** Runs the window of {@code calls} over random rows of every edge size, on the GPU as on the CPU. */
    private void check(long seed, Schema schema, Options options, List<Integer> partitionKeys, List<SortKey> orderKeys,
            List<WindowCall> calls) {
        RandomBatches random = new RandomBatches(seed);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, options)) {
                PlanNode plan = WindowPlans.window(scan(source), partitionKeys, orderKeys, calls);
                runOnGpuAsOnCpu(plan, 0, false, "seed " + seed + ", rows " + rows + ", " + options + ", " + plan.describe());
            }
        }
    }

    @Test
    void everyFunctionOverEveryTypeWithTiesAndNullKeys() {
        long seed = 100;
        for (DataType value : RandomBatches.allTypes()) {
            check(seed++, schema(DataType.INTEGER, DataType.INTEGER, value),
                    Options.plain().withDistinct(20).withNulls(0.15).withZipf().withVaryingDictionaries(), List.of(0),
                    List.of(new SortKey(1, false, false)), allCalls(value, WindowPlans.FRAMES));
        }
    }

    @Test
    void stringAndDescendingOrderKeys() {
        check(200, schema(DataType.VARCHAR, DataType.VARCHAR, DataType.decimal(12, 2)),
                Options.plain().withDistinct(12).withNulls(0.2).withVaryingDictionaries(), List.of(0),
                List.of(new SortKey(1, true, true), new SortKey(2, false, false)), allCalls(DataType.decimal(12, 2), WindowPlans.FRAMES));
    }

    /** A string constant as the default: its code in the values' dictionary, added where the dictionary lacks it. */
    @Test
    void lagAndLeadWithStringConstantDefaults() {
        ColumnRef v = new ColumnRef(2, DataType.VARCHAR);
        List<WindowCall> calls = List.of(WindowPlans.call(WindowFunction.LAG, List.of(v, Literal.ofLong(1, DataType.INTEGER),
                Literal.ofString("none")), WindowFrame.RANGE_TO_CURRENT_ROW, DataType.VARCHAR),
                WindowPlans.call(WindowFunction.LEAD, List.of(v, Literal.ofLong(2, DataType.INTEGER), Literal.ofString("")),
                        WindowFrame.RANGE_TO_CURRENT_ROW, DataType.VARCHAR));
        check(800, schema(DataType.INTEGER, DataType.INTEGER, DataType.VARCHAR),
                Options.plain().withDistinct(12).withNulls(0.2).withExtremes().withVaryingDictionaries(), List.of(0),
                List.of(new SortKey(1, false, false)), calls);
    }

    @Test
    void manyTinyPartitions() {
        check(300, schema(DataType.BIGINT, DataType.DOUBLE, DataType.BIGINT), Options.plain().withNulls(0.05), List.of(0),
                List.of(new SortKey(1, true, true)), allCalls(DataType.BIGINT, WindowPlans.FRAMES));
    }

    @Test
    void onePartitionOfAllRows() {
        check(400, schema(DataType.INTEGER, DataType.DATE, DataType.DOUBLE), Options.plain().withDistinct(50).withNulls(0.1),
                List.of(), List.of(new SortKey(1, false, true)), allCalls(DataType.DOUBLE, WindowPlans.FRAMES));
    }

    @Test
    void withoutOrderKeysEveryRowOfAPartitionIsAPeer() {
        check(500, schema(DataType.BOOLEAN, DataType.INTEGER, DataType.INTEGER), Options.plain().withNulls(0.1), List.of(0),
                List.of(), allCalls(DataType.INTEGER, List.of(WindowFrame.WHOLE_PARTITION)));
    }

    @Test
    void rangeFramesWithOffsetsOnEveryKeyType() {
        long seed = 600;
        for (DataType key : List.of(DataType.INTEGER, DataType.BIGINT, DataType.decimal(12, 2), DataType.DATE, DataType.TIMESTAMP)) {
            for (boolean descending : new boolean[] {false, true}) {
                check(seed++, schema(DataType.INTEGER, key, DataType.BIGINT),
                        Options.plain().withDistinct(40).withNulls(0.1), List.of(0),
                        List.of(new SortKey(1, descending, !descending)), allCalls(DataType.BIGINT, WindowPlans.RANGE_OFFSET_FRAMES));
            }
        }
    }

    @Test
    void rangeOffsetsSaturateAtTheKeysExtremes() {
        check(700, schema(DataType.INTEGER, DataType.BIGINT, DataType.INTEGER), Options.plain().withDistinct(8).withExtremes()
                .withNulls(0.1), List.of(0), List.of(new SortKey(1, false, false)),
                allCalls(DataType.INTEGER, WindowPlans.RANGE_OFFSET_FRAMES));
    }

    @Test
    void averagesOfSumsBeyondSixtyFourBitsAreFinishedOnTheHost() {
        List<WindowCall> averages = new ArrayList<>();
        for (WindowFrame frame : WindowPlans.FRAMES) {
            for (DataType type : List.of(DataType.DOUBLE, DataType.BIGINT)) {
                averages.add(WindowPlans.call(WindowFunction.AVG, List.of(new ColumnRef(2, DataType.BIGINT)), frame, type));
            }
        }
        check(800, schema(DataType.INTEGER, DataType.INTEGER, DataType.BIGINT), Options.plain().withDistinct(6).withExtremes(),
                List.of(0), List.of(new SortKey(1, false, false)), averages);
    }

    @Test
    void sumsOutOfRangeFailAsOnTheCpu() {
        RandomBatches random = new RandomBatches(900);
        Schema schema = schema(DataType.INTEGER, DataType.INTEGER, DataType.BIGINT);
        try (ListSource source = randomSource(random, schema, 5000, Options.plain().withDistinct(6).withExtremes())) {
            PlanNode plan = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, false)),
                    List.of(WindowPlans.call(WindowFunction.SUM, List.of(new ColumnRef(2, DataType.BIGINT)),
                            WindowFrame.WHOLE_PARTITION, DataType.BIGINT)));
            assertSameOnGpu(plan, false, "SUM of BIGINT extremes");
        }
    }

    @Test
    void ntileOfZeroBucketsFailsAsOnTheCpu() {
        RandomBatches random = new RandomBatches(1000);
        Schema schema = schema(DataType.INTEGER, DataType.INTEGER, DataType.INTEGER);
        try (ListSource source = randomSource(random, schema, 100, Options.plain())) {
            PlanNode plan = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, false)),
                    List.of(WindowPlans.call(WindowFunction.NTILE, List.of(Literal.ofLong(0, DataType.INTEGER)),
                            WindowFrame.RANGE_TO_CURRENT_ROW, DataType.INTEGER)));
            assertSameOnGpu(plan, false, "NTILE(0)");
        }
    }

    @Test
    void stackedWindowsOfDifferentSpecifications() {
        RandomBatches random = new RandomBatches(1100);
        Schema schema = schema(DataType.INTEGER, DataType.INTEGER, DataType.BIGINT);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, Options.plain().withDistinct(30).withNulls(0.1))) {
                PlanNode inner = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, true)),
                        WindowPlans.frameCalls(2, DataType.BIGINT, WindowFrame.RANGE_TO_CURRENT_ROW));
                PlanNode outer = WindowPlans.window(inner, List.of(1), List.of(new SortKey(2, true, false)),
                        WindowPlans.orderCalls(2, DataType.BIGINT));
                runOnGpuAsOnCpu(outer, 0, false, "rows " + rows);
            }
        }
    }
}
