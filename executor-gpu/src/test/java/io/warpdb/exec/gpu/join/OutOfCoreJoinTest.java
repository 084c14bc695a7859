package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Joins larger than the device budget (a GPU executor whose queries may hold a quarter of the
 * join's inputs) run out of core on the GPU, never on the CPU, and equal the CPU executor's
 * answers: every kind, duplicates and NULL keys on both sides, Zipf-skewed keys whose hot key no
 * radix bits can split (joined in blocks), conditions beyond the keys; a join whose inputs fit
 * but whose output does not switches to out-of-core at run time; joins without equality keys run
 * as block nested-loop joins, and those whose condition bounds a left column by a right one as
 * global sort-merge joins. Every out-of-core note names each device the executor uses.
 */
class OutOfCoreJoinTest extends GpuTestBase {
    private static final Schema LEFT = GpuJoinTest.schema(DataType.INTEGER, DataType.VARCHAR, DataType.BIGINT);
    private static final Schema RIGHT = GpuJoinTest.schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);

    @Test
    void everyKindWithDuplicatesAndNullKeys() {
        GpuTests.assumeGpu();
        long seed = 1901;
        Options options = Options.plain().withDistinct(60_000).withNulls(0.1).withVaryingDictionaries().withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource l = randomSource(random, LEFT, 100_000, options); ListSource r = randomSource(random, RIGHT, 100_000, options)) {
            for (JoinKind kind : JoinKind.values()) {
                compareOutOfCore(GpuJoinTest.join(scan(l), scan(r), kind, List.of(0), List.of(0), null), false,
                        "seed " + seed + ", " + kind);
            }
        }
    }

    @Test
    void stringAndTwoColumnKeys() {
        GpuTests.assumeGpu();
        long seed = 1902;
        Schema left = GpuJoinTest.schema(DataType.VARCHAR, DataType.INTEGER, DataType.BIGINT);
        Schema right = GpuJoinTest.schema(DataType.VARCHAR, DataType.INTEGER, DataType.DATE);
        Options options = Options.plain().withDistinct(300).withNulls(0.05).withVaryingDictionaries().withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource l = randomSource(random, left, 100_000, options); ListSource r = randomSource(random, right, 100_000, options)) {
            for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.FULL, JoinKind.ANTI)) {
                // VARCHAR keys of different dictionaries per batch, with an INTEGER key.
                compareOutOfCore(GpuJoinTest.join(scan(l), scan(r), kind, List.of(0, 1), List.of(0, 1), null), false,
                        "seed " + seed + ", " + kind + " on two keys");
            }
        }
    }

    @Test
    void zipfSkewedKeysWithAHotKeyOnEitherSide() {
        GpuTests.assumeGpu();
        long seed = 1903;
        Options skewed = Options.plain().withDistinct(2000).withZipf().withNulls(0.05).withSharedPools(seed);
        Options uniform = Options.plain().withDistinct(2000).withNulls(0.05).withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource hot = randomSource(random, LEFT, 200_000, skewed); ListSource few = randomSource(random, RIGHT, 4_000, uniform);
                ListSource hotRight = randomSource(random, RIGHT, 200_000, skewed);
                ListSource fewLeft = randomSource(random, LEFT, 4_000, uniform)) {
            for (JoinKind kind : JoinKind.values()) {
                compareOutOfCore(GpuJoinTest.join(scan(hot), scan(few), kind, List.of(0), List.of(0), null), true,
                        "seed " + seed + ", skewed left, " + kind);
                compareOutOfCore(GpuJoinTest.join(scan(fewLeft), scan(hotRight), kind, List.of(0), List.of(0), null), true,
                        "seed " + seed + ", skewed right, " + kind);
            }
        }
    }

    @Test
    void conditionsBeyondTheKeys() {
        GpuTests.assumeGpu();
        long seed = 1904;
        Options options = Options.plain().withDistinct(50_000).withNulls(0.1).withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource l = randomSource(random, LEFT, 100_000, options); ListSource r = randomSource(random, RIGHT, 100_000, options)) {
            // L.c2 < R.c1 (both BIGINT): output columns are the left ones, then the right ones.
            Expr residual = Call.of(Op.LT, DataType.BOOLEAN, new ColumnRef(2, DataType.BIGINT), new ColumnRef(4, DataType.BIGINT));
            for (JoinKind kind : JoinKind.values()) {
                compareOutOfCore(GpuJoinTest.join(scan(l), scan(r), kind, List.of(0), List.of(0), residual), false,
                        "seed " + seed + ", " + kind + " on " + residual);
            }
        }
    }

    @Test
    void aJoinWhoseOutputExceedsTheBudgetSwitchesToOutOfCoreAtRunTime() {
        GpuTests.assumeGpu();
        long seed = 1905;
        Options options = Options.plain().withDistinct(1000).withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource l = randomSource(random, LEFT, 20_000, options); ListSource r = randomSource(random, RIGHT, 20_000, options)) {
            JoinNode node = GpuJoinTest.join(scan(l), scan(r), JoinKind.INNER, List.of(0), List.of(0), null);
            // Inputs within a quarter of the budget (an in-core join by their size); 400,000 output rows far beyond it.
            long budget = 4 * (inputBytes(l) + inputBytes(r));
            NodeStats stats = compare(node, budget, "seed " + seed + ", output beyond the budget");
            assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("the in-core run ran out of device memory")),
                    "notes: " + stats.notes());
        }
    }

    @Test
    void joinsWithoutEqualityKeysRunAsBlockNestedLoopJoins() {
        GpuTests.assumeGpu();
        long seed = 1906;
        Options options = Options.plain().withDistinct(5_000).withNulls(0.1).withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        try (ListSource big = randomSource(random, LEFT, 60_000, options); ListSource few = randomSource(random, RIGHT, 50, options);
                ListSource small = randomSource(random, LEFT, 2_000, options);
                ListSource some = randomSource(random, RIGHT, 500, options)) {
            // A theta condition only, which bounds no column by another (a range would be sorted): L.c2 < R.c1 OR L.c0 = R.c0.
            Expr theta = Call.of(Op.OR, DataType.BOOLEAN,
                    Call.of(Op.LT, DataType.BOOLEAN, new ColumnRef(2, DataType.BIGINT), new ColumnRef(4, DataType.BIGINT)),
                    Call.of(Op.EQ, DataType.BOOLEAN, new ColumnRef(0, DataType.INTEGER), new ColumnRef(3, DataType.INTEGER)));
            for (JoinKind kind : JoinKind.values()) {
                // Inputs beyond a quarter of the budget: out of core by their size.
                JoinNode byEstimate = GpuJoinTest.join(scan(big), scan(few), kind, List.of(), List.of(), theta);
                NodeStats stats = assertSameOnGpuWithBudget(byEstimate, 4 << 20, "seed " + seed + ", " + kind + " on " + theta);
                assertBlockNestedLoop(stats, "seed " + seed + ", " + kind);
                // Inputs within it, but 1,000,000 candidate pairs beyond it: switched at run time.
                JoinNode bySize = GpuJoinTest.join(scan(small), scan(some), kind, List.of(), List.of(), theta);
                stats = assertSameOnGpuWithBudget(bySize, 4 << 20, "seed " + seed + ", " + kind + " on " + theta + ", switched");
                assertBlockNestedLoop(stats, "seed " + seed + ", " + kind + ", switched");
                assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("the in-core run ran out of device memory")),
                        "notes: " + stats.notes());
            }
        }
    }

    @Test
    void rangeConditionsRunAsGlobalSortMergeJoins() {
        GpuTests.assumeGpu();
        long seed = 1907;
        Options options = Options.plain().withDistinct(8_000).withNulls(0.1).withSharedPools(seed);
        RandomBatches random = new RandomBatches(seed);
        ColumnRef leftValue = new ColumnRef(2, DataType.BIGINT);
        ColumnRef rightValue = new ColumnRef(4, DataType.BIGINT);
        try (ListSource l = randomSource(random, LEFT, 12_000, options); ListSource r = randomSource(random, RIGHT, 12_000, options);
                ListSource fewer = randomSource(random, LEFT, 2_500, options);
                ListSource some = randomSource(random, RIGHT, 2_500, options)) {
            // A band of width 0, L.c2 BETWEEN R.c1 AND R.c1: each left block meets the few right blocks of its values.
            Expr band = Call.of(Op.AND, DataType.BOOLEAN, Call.of(Op.GE, DataType.BOOLEAN, leftValue, rightValue),
                    Call.of(Op.GE, DataType.BOOLEAN, rightValue, leftValue));
            for (JoinKind kind : JoinKind.values()) {
                JoinNode node = GpuJoinTest.join(scan(l), scan(r), kind, List.of(), List.of(), band);
                String context = "seed " + seed + ", " + kind + " on " + band;
                NodeStats stats = assertSameOnGpuWithBudget(node, 1 << 20, context);
                long[] pairs = sortMergePairs(stats, context);
                assertTrue(pairs[1] < pairs[0], context + ": every pair of blocks joined: " + stats.notes());
            }
            // One bound, R.c1 > L.c2: a left block meets the right blocks above its smallest value.
            Expr above = Call.of(Op.GT, DataType.BOOLEAN, rightValue, leftValue);
            for (JoinKind kind : List.of(JoinKind.INNER, JoinKind.RIGHT, JoinKind.ANTI)) {
                JoinNode node = GpuJoinTest.join(scan(fewer), scan(some), kind, List.of(), List.of(), above);
                String context = "seed " + seed + ", " + kind + " on " + above;
                sortMergePairs(assertSameOnGpuWithBudget(node, 1 << 20, context), context);
            }
        }
    }

    /** The blocks' pairs (all, joined) that the global sort-merge join's note reports; asserts it ran over every device. */
    private static long[] sortMergePairs(NodeStats stats, String context) {
        String prefix = "out-of-core global sort-merge join: ";
        String note = stats.notes().stream().filter(n -> n.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError(context + ": notes " + stats.notes()));
        assertDealtOverEveryDevice(stats, "blocks", context);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) x (\\d+) blocks .*?, (\\d+) pairs").matcher(note);
        assertTrue(m.find(), note);
        return new long[] {Long.parseLong(m.group(1)) * Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    private static void assertBlockNestedLoop(NodeStats stats, String context) {
        assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("out-of-core block nested-loop join: ")),
                context + ": notes " + stats.notes());
        if (io.warpdb.exec.gpu.runtime.CudaDevice.devices().size() > 1) {
            // Several devices pass the right blocks round a ring, peer to peer.
            assertTrue(stats.notes().stream().anyMatch(n -> n.contains("passed round a ring of ")), context + ": notes " + stats.notes());
        }
        assertDealtOverEveryDevice(stats, "blocks", context);
    }

    /** The join with a device budget a quarter of its inputs: out of core, on the GPU, equal to the CPU's answer. */
    private void compareOutOfCore(JoinNode node, boolean expectHotKeys, String context) {
        ListSource left = (ListSource) ((io.warpdb.core.plan.ScanNode) node.left()).table();
        ListSource right = (ListSource) ((io.warpdb.core.plan.ScanNode) node.right()).table();
        NodeStats stats = compare(node, (inputBytes(left) + inputBytes(right)) / 4, context);
        assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("inputs of ")), context + ": notes " + stats.notes());
        if (expectHotKeys) {
            assertTrue(stats.notes().stream().anyMatch(n -> n.contains("out-of-core") && !n.contains(" 0 joined in blocks")),
                    context + ": notes " + stats.notes());
        }
    }

    /** Runs the join on a GPU executor with {@code budget} bytes per query; asserts the CPU's rows and that the GPU ran it out of core. */
    private NodeStats compare(JoinNode node, long budget, String context) {
        NodeStats stats = assertSameOnGpuWithBudget(node, budget, context);
        assertTrue(stats.notes().stream().anyMatch(n -> n.startsWith("out-of-core hybrid join: ")), context + ": notes " + stats.notes());
        assertTrue(stats.bytesToDevice() > 0 && stats.bytesToHost() > 0, context);
        assertDealtOverEveryDevice(stats, "partitions", context);
        return stats;
    }

    private static long inputBytes(ListSource source) {
        return source.rowCount() * HostTable.rowBytes(source.schema());
    }
}
