package io.warpdb.exec.gpu.join;

import static io.warpdb.exec.gpu.join.GpuJoinTest.join;
import static io.warpdb.exec.gpu.join.GpuJoinTest.schema;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.KeyColumn.KeyRange;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sort-merge join's pairs (GpuMergeJoin.match, gathered as GpuJoin does) against the CPU
 * executor's join in INNER, LEFT, RIGHT and FULL kinds, called directly rather than through the
 * strategy rule; plus the key packing decisions, without a GPU. GpuJoinTest also runs every join
 * it checks through the merge where the keys allow.
 */
class GpuMergeJoinTest extends GpuTestBase {
    private static final List<JoinKind> KINDS = List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.RIGHT, JoinKind.FULL);
    /** Around warps, the merge-path tile (896 = 128 threads x 7) and the scan tile (2048), and many tiles. */
    private static final int[] SIZES = {0, 1, 31, 32, 33, 895, 896, 897, 2049, 100_003};

    // ---- key packing, no GPU needed ----

    @Test
    void keysMergeWhenTheirTypesFitSixtyFourBits() {
        Schema types = schema(DataType.INTEGER, DataType.DATE, DataType.VARCHAR, DataType.BOOLEAN, DataType.BIGINT,
                DataType.decimal(12, 2), DataType.DOUBLE, DataType.chars(3));
        PlanNode side;
        try (ListSource empty = new ListSource(types, List.of())) {
            side = scan(empty);
        }
        for (int k = 0; k < types.size(); k++) {
            assertNull(unsupported(side, List.of(k), List.of(k)), "one key of type " + types.type(k));
        }
        assertNull(unsupported(side, List.of(0, 1), List.of(0, 1)), "INTEGER, DATE: 64 bits");
        assertNull(unsupported(side, List.of(2, 1, 3), List.of(7, 1, 3)), "VARCHAR = CHAR, DATE, BOOLEAN: 31 + 32 + 1 bits");
        assertNotNull(unsupported(side, List.of(0, 1, 3), List.of(0, 1, 3)), "INTEGER, DATE, BOOLEAN: 65 bits");
        assertNotNull(unsupported(side, List.of(4, 3), List.of(4, 3)), "BIGINT with BOOLEAN");
        assertNotNull(unsupported(side, List.of(0, 3), List.of(4, 3)), "INTEGER = BIGINT is as wide as BIGINT");
        assertNotNull(unsupported(side, List.of(), List.of()), "no keys");
        String reason = unsupported(side, List.of(5, 6), List.of(5, 6));
        assertTrue(reason.contains("128"), reason);
    }

    private static String unsupported(PlanNode side, List<Integer> leftKeys, List<Integer> rightKeys) {
        return GpuMergeJoin.unsupportedKeys(join(side, side, JoinKind.FULL, leftKeys, rightKeys, null));
    }

    @Test
    void packingSpansTheValuesOfBothSides() {
        KeyRange none = new KeyRange(-1L, 0, 7, 0);
        List<KeyRange> left = List.of(new KeyRange(10, 20, 0, 5), new KeyRange(100, 100, 1, 3), none,
                new KeyRange(0, 0xFFFF_FFFFL, 0, 9), new KeyRange(Long.MIN_VALUE, Long.MIN_VALUE + 1, 0, 2));
        List<KeyRange> right = List.of(new KeyRange(5, 12, 0, 4), none, none, new KeyRange(3, 4, 0, 1),
                new KeyRange(1, 1, 0, 1));
        PackedKeys.Layout layout = PackedKeys.Layout.of(left, right);
        // [5, 20]: 4 bits; one value: none; no values: none; [0, 2^32): 32 bits; unsigned [1, 2^63 + 1]: 64 bits - too many.
        assertNull(layout);
        layout = PackedKeys.Layout.of(left.subList(0, 4), right.subList(0, 4));
        assertArrayEquals(new long[] {5, 100, 0, 0}, layout.mins());
        assertArrayEquals(new long[] {0, 0, 0, 4}, layout.shifts());
        assertEquals(36, layout.bits());
        layout = PackedKeys.Layout.of(List.of(none), List.of(none));
        assertEquals(0, layout.bits());
    }

    @Test
    void packingUsesAllSixtyFourBitsAndNoMore() {
        KeyRange int32 = new KeyRange(Long.MIN_VALUE - 0x8000_0000L, Long.MIN_VALUE + 0x7FFF_FFFFL, 0, 2);
        KeyRange bool = new KeyRange(0, 1, 0, 2);
        PackedKeys.Layout two = PackedKeys.Layout.of(List.of(int32, int32), List.of(int32, int32));
        assertArrayEquals(new long[] {0, 32}, two.shifts());
        assertEquals(64, two.bits());
        assertNull(PackedKeys.Layout.of(List.of(int32, int32, bool), List.of(int32, int32, bool)));
        PackedKeys.Layout one = PackedKeys.Layout.of(List.of(new KeyRange(0, -1L, 0, 2)), List.of(new KeyRange(0, -1L, 0, 2)));
        assertEquals(64, one.bits());
    }

    @Test
    void packedFieldsNeverOverlap() {
        Random random = new Random(17);
        int packed = 0;
        for (int trial = 0; trial < 2000; trial++) {
            int n = 1 + random.nextInt(4);
            List<KeyRange> left = new ArrayList<>();
            List<KeyRange> right = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                left.add(randomRange(random));
                right.add(randomRange(random));
            }
            PackedKeys.Layout layout = PackedKeys.Layout.of(left, right);
            if (layout == null) {
                continue;
            }
            packed++;
            long used = 0;
            for (int k = 0; k < n; k++) {
                KeyRange l = left.get(k);
                KeyRange r = right.get(k);
                long max = 0;
                for (KeyRange side : List.of(l, r)) {
                    if (side.valids() > 0) {
                        assertTrue(Long.compareUnsigned(side.min(), layout.mins()[k]) >= 0, "min of both sides");
                        max = Math.max(max, 64 - Long.numberOfLeadingZeros(side.max() - layout.mins()[k]));
                    }
                }
                if (max > 0) {
                    long field = (max == 64 ? -1L : (1L << max) - 1) << layout.shifts()[k];
                    assertEquals(0, used & field, "fields overlap: " + left + " / " + right);
                    assertTrue(layout.shifts()[k] + max <= 64);
                    used |= field;
                }
            }
            assertEquals(Long.bitCount(used), layout.bits());
        }
        assertTrue(packed > 200, packed + " layouts checked");
    }

    /** A range of unsigned keys, small or wide, sometimes of no values (all NULL). */
    private static KeyRange randomRange(Random random) {
        if (random.nextInt(5) == 0) {
            return new KeyRange(-1L, 0, 3, 0);
        }
        long min = random.nextLong();
        long max = min + (random.nextInt(3) == 0 ? 0 : random.nextLong() >>> random.nextInt(64));
        return new KeyRange(min, Long.compareUnsigned(max, min) < 0 ? -1L : max, 0, 1);
    }

    // ---- the GPU against the CPU ----

    @Test
    void everySizeOnEitherSide() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.VARCHAR);
        Schema right = schema(DataType.INTEGER, DataType.DOUBLE);
        for (int leftRows : SIZES) {
            for (int rightRows : SIZES) {
                int distinct = Math.max(16, Math.min(leftRows, rightRows));
                check(1000 + leftRows * 7L + rightRows, left, right, 1, Options.plain().withDistinct(distinct).withNulls(0.1),
                        leftRows, rightRows);
            }
        }
    }

    @Test
    void everyKeyType() {
        GpuTests.assumeGpu();
        for (DataType key : List.of(DataType.BIGINT, DataType.INTEGER, DataType.DATE, DataType.VARCHAR, DataType.decimal(12, 2),
                DataType.DOUBLE, DataType.BOOLEAN)) {
            Schema left = schema(key, DataType.BIGINT);
            Schema right = schema(key, DataType.VARCHAR);
            Options options = Options.plain().withDistinct(40).withNulls(0.1).withExtremes().withVaryingDictionaries();
            int[][] sizes = key.equals(DataType.BOOLEAN) ? new int[][] {{33, 897}, {897, 31}}
                    : new int[][] {{2049, 2047}, {33, 100_003}, {100_003, 31}, {0, 897}, {897, 0}};
            for (int[] size : sizes) {
                check(2000 + key.hashCode() + size[0], left, right, 1, options, size[0], size[1]);
            }
        }
    }

    @Test
    void packedMultiColumnKeys() {
        GpuTests.assumeGpu();
        // Two INTEGER keys with extremes span all 64 bits; VARCHAR, DATE, BOOLEAN pack into 64 bits too.
        List<Schema> lefts = List.of(schema(DataType.INTEGER, DataType.INTEGER, DataType.BIGINT),
                schema(DataType.VARCHAR, DataType.DATE, DataType.BOOLEAN, DataType.BIGINT));
        List<Schema> rights = List.of(schema(DataType.INTEGER, DataType.INTEGER, DataType.VARCHAR),
                schema(DataType.VARCHAR, DataType.DATE, DataType.BOOLEAN, DataType.DATE));
        Options options = Options.plain().withDistinct(5).withZipf().withNulls(0.15).withExtremes().withVaryingDictionaries();
        for (int s = 0; s < lefts.size(); s++) {
            int keyCount = lefts.get(s).size() - 1;
            for (int[] size : new int[][] {{0, 33}, {33, 0}, {1, 1}, {31, 32}, {897, 896}, {2049, 33}, {100_003, 2049}}) {
                check(3000 + s * 100L + size[0], lefts.get(s), rights.get(s), keyCount, options, size[0], size[1]);
            }
        }
    }

    @Test
    void skewedDuplicatesExpandOverManyTiles() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.BIGINT);
        Schema right = schema(DataType.INTEGER, DataType.DATE);
        // One to three Zipf-skewed key values: single keys with up to ~10^5 pairs each, over hundreds of tiles.
        for (int distinct = 1; distinct <= 3; distinct++) {
            Options options = Options.plain().withDistinct(distinct).withZipf().withNulls(0.05);
            for (int[] size : new int[][] {{700, 700}, {1, 5000}, {5000, 1}, {2, 897}}) {
                check(4000 + distinct * 10L + size[0], left, right, 1, options, size[0], size[1]);
            }
        }
    }

    @Test
    void resultsOfTwoToTheThirtyOneRowsGoBackToTheCpu() {
        GpuTests.assumeGpu();
        Schema side = schema(DataType.INTEGER);
        Options oneValue = Options.plain().withDistinct(1).withSharedPools(5000);
        RandomBatches random = new RandomBatches(5000);
        // 50,000 x 50,000 rows of one key: 2.5 * 10^9 pairs.
        try (ListSource l = randomSource(random, side, 50_000, oneValue); ListSource r = randomSource(random, side, 50_000, oneValue)) {
            for (JoinKind kind : KINDS) {
                JoinNode node = join(scan(l), scan(r), kind, List.of(0), List.of(0), null);
                assertThrows(GpuOutOfMemoryException.class, () -> gpuRows(l, r, (lt, rt, work) -> mergeJoin(node, lt, rt, work)),
                        kind.toString());
            }
        }
    }

    /** Joins random sources on their first {@code keyCount} columns in every kind the merge produces. */
    private void check(long seed, Schema left, Schema right, int keyCount, Options options, int leftRows, int rightRows) {
        RandomBatches random = new RandomBatches(seed);
        Options shared = options.withSharedPools(seed);
        List<Integer> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(k);
        }
        try (ListSource l = randomSource(random, left, leftRows, shared); ListSource r = randomSource(random, right, rightRows, shared)) {
            for (JoinKind kind : KINDS) {
                JoinNode node = join(scan(l), scan(r), kind, keys, keys, null);
                String context = "seed " + seed + ", rows " + leftRows + " x " + rightRows + ", " + keyCount + " key(s), " + kind
                        + ", " + options;
                assertNull(GpuMergeJoin.unsupportedKeys(node), context);
                assertSameResult(node, l, r, (lt, rt, work) -> mergeJoin(node, lt, rt, work), context);
            }
        }
    }

    private static DeviceTable mergeJoin(JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        try (JoinPairs pairs = GpuMergeJoin.match(node.kind(), node, left, right, work)) {
            return JoinOutput.gather(node, left, right, pairs, work);
        }
    }
}
