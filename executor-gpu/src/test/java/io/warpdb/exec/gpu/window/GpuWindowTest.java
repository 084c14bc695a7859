package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFrame.Bound;
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

    /**
     * Wide DECIMAL partition and order keys (a SUM's type), each sorted and compared as two words:
     * ties from a small pool of values, both words' limits, NULLs; peers by the wide order key.
     */
    @Test
    void wideDecimalPartitionAndOrderKeys() {
        long seed = 1200;
        for (DataType wide : List.of(DataType.decimal(38, 2), DataType.decimal(24, 0))) {
            for (boolean descending : new boolean[] {false, true}) {
                List<WindowCall> calls = new ArrayList<>(WindowPlans.orderCalls(2, DataType.BIGINT));
                calls.addAll(WindowPlans.pickedCalls(2, DataType.BIGINT, WindowFrame.RANGE_TO_CURRENT_ROW));
                check(seed++, schema(wide, wide, DataType.BIGINT), Options.plain().withDistinct(20).withNulls(0.15).withExtremes(),
                        List.of(0), List.of(new SortKey(1, descending, descending)), calls);
            }
        }
    }

    /**
     * A wide DECIMAL as the carried, picked and compared value: LAG and LEAD (defaults: the column,
     * a constant beyond 64 bits, NULL), FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN, MAX and counts over
     * every frame, with both words' limits among the values.
     */
    @Test
    void wideDecimalValuesPickedAndCarried() {
        long seed = 1300;
        for (DataType wide : List.of(DataType.decimal(38, 2), DataType.decimal(24, 0))) {
            List<WindowCall> calls = new ArrayList<>(WindowPlans.orderCalls(2, wide));
            for (WindowFrame frame : WindowPlans.FRAMES) {
                calls.addAll(WindowPlans.pickedCalls(2, wide, frame));
            }
            check(seed++, schema(DataType.INTEGER, DataType.INTEGER, wide),
                    Options.plain().withDistinct(30).withNulls(0.15).withExtremes(), List.of(0),
                    List.of(new SortKey(1, false, false)), calls);
        }
    }

    /**
     * SUM (as DECIMAL(38, s)), SUM0 and AVG (as DOUBLE) of wide DECIMALs over every frame: the
     * frames' sums joined from the sums of the values' lower and upper words, the averages of sums
     * beyond 64 bits finished on the host. Values below 30 digits, so that no frame's sum passes 38.
     */
    @Test
    void sumsAndAveragesOfWideDecimals() {
        long seed = 1400;
        for (DataType wide : List.of(DataType.decimal(30, 4), DataType.decimal(24, 0))) {
            List<WindowCall> calls = new ArrayList<>();
            for (WindowFrame frame : WindowPlans.FRAMES) {
                calls.addAll(WindowPlans.sumCalls(2, wide, frame));
            }
            check(seed++, schema(DataType.INTEGER, DataType.INTEGER, wide), Options.plain().withNulls(0.1), List.of(0),
                    List.of(new SortKey(1, false, false)), calls);
        }
    }

    /**
     * DECIMAL(38, 2) values up to their limits: a frame of one value is that value though the
     * prefix sums pass 128 bits; wider frames' SUMs beyond 38 digits and sums beyond 128 bits (AVG)
     * fail with 22003 as on the CPU, or agree with it.
     */
    @Test
    void sumsOfWideDecimalsAtTheirLimits() {
        DataType wide = DataType.decimal(38, 2);
        WindowFrame currentRow = new WindowFrame(true, Bound.CURRENT_ROW, Bound.CURRENT_ROW);
        Schema schema = schema(DataType.INTEGER, DataType.INTEGER, wide);
        RandomBatches random = new RandomBatches(1500);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, Options.plain().withDistinct(40).withExtremes())) {
                PlanNode single = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, false)),
                        WindowPlans.sumCalls(2, wide, currentRow));
                runOnGpuAsOnCpu(single, 0, false, "rows " + rows + ", " + single.describe());
                for (WindowFrame frame : List.of(WindowFrame.WHOLE_PARTITION, WindowPlans.FRAMES.get(4))) {
                    PlanNode plan = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, false)),
                            WindowPlans.sumCalls(2, wide, frame));
                    assertAcceptedByGpu(plan);
                    assertSameOnGpu(plan, false, "rows " + rows + ", " + plan.describe());
                }
            }
        }
    }

    /**
     * SUMs of narrow DECIMALs as wide ones at other scales than the argument's: digits added (up to
     * 18 on the device), dropped with HALF_UP, and beyond the result's precision 22003 as on the CPU.
     */
    @Test
    void sumsOfNarrowDecimalsAsWideDecimalsOfOtherScales() {
        DataType narrow = DataType.decimal(18, 2);
        ColumnRef v = new ColumnRef(2, narrow);
        List<WindowCall> calls = new ArrayList<>();
        for (WindowFrame frame : List.of(WindowFrame.WHOLE_PARTITION, WindowPlans.FRAMES.get(4))) {
            for (DataType wide : List.of(DataType.decimal(38, 0), DataType.decimal(38, 6), DataType.decimal(38, 20),
                    DataType.decimal(38, 22))) {
                calls.add(WindowPlans.call(WindowFunction.SUM, List.of(v), frame, wide));
            }
        }
        RandomBatches random = new RandomBatches(1600);
        Schema schema = schema(DataType.INTEGER, DataType.INTEGER, narrow);
        for (int rows : RandomBatches.SIZES) {
            try (ListSource source = randomSource(random, schema, rows, Options.plain().withDistinct(12).withExtremes())) {
                for (WindowCall call : calls) {
                    PlanNode plan = WindowPlans.window(scan(source), List.of(0), List.of(new SortKey(1, false, false)),
                            List.of(call));
                    assertAcceptedByGpu(plan);
                    assertSameOnGpu(plan, false, "rows " + rows + ", " + plan.describe());
                }
            }
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
