package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
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
 * The GPU hash join against the CPU executor's join on random inputs of every supported kind,
 * key type and size (either side empty included), plus its host-side logic without a GPU. Both
 * inputs draw their keys from the same pools of values ({@link Options#withSharedPools}), so
 * that keys match across the sides with duplicates on both.
 */
class GpuHashJoinTest extends GpuTestBase {
    private static final List<JoinKind> KINDS = List.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI);

    // ---- host-side logic, no GPU needed ----

    @Test
    void hashTableIsAPowerOfTwoAtMostHalfFull() {
        assertEquals(2, GpuHashJoin.tableSlots(0));
        assertEquals(2, GpuHashJoin.tableSlots(1));
        assertEquals(4, GpuHashJoin.tableSlots(2));
        assertEquals(8, GpuHashJoin.tableSlots(3));
        assertEquals(8, GpuHashJoin.tableSlots(4));
        assertEquals(1L << 32, GpuHashJoin.tableSlots(Integer.MAX_VALUE));
        for (long rows = 0; rows < 5000; rows++) {
            long slots = GpuHashJoin.tableSlots(rows);
            assertEquals(1, Long.bitCount(slots), "slots for " + rows);
            assertTrue(slots >= 2 * rows && (slots <= 2 || slots / 2 < 2 * rows), "slots " + slots + " for " + rows);
        }
    }

    @Test
    void stringCodesOfBothDictionariesMeetOnTheirValues() {
        StringDictionary probe = StringDictionary.ofDistinct(List.of("b", "x", "a", ""));
        StringDictionary build = StringDictionary.ofValues(new String[] {"a", "", "b", "a", "c"});
        JoinKeys.CodeKeys keys = JoinKeys.codeKeys(probe, build);
        int[] b = keys.build();
        int[] p = keys.probe();
        assertEquals(b[0], b[3], "repeated build values share a key");
        assertEquals(b[2], p[0]);
        assertEquals(b[0], p[2]);
        assertEquals(b[1], p[3]);
        for (int code : b) {
            assertNotEquals(code, p[1], "a probe string the build side lacks matches no build code");
        }
        JoinKeys.CodeKeys empty = JoinKeys.codeKeys(probe, StringDictionary.EMPTY);
        assertArrayEquals(new int[0], empty.build());
        assertEquals(4, empty.probe().length);
    }

    @Test
    void supportsEquiJoinsOfComparableKeysOnly() {
        Schema ints = schema(DataType.INTEGER, DataType.BIGINT, DataType.decimal(12, 2), DataType.DOUBLE, DataType.DATE,
                DataType.VARCHAR, DataType.chars(3), DataType.BOOLEAN, DataType.decimal(18, 2));
        PlanNode side;
        try (ListSource empty = new ListSource(ints, List.of())) {
            side = scan(empty);
        }
        for (JoinKind kind : KINDS) {
            assertTrue(GpuHashJoin.supports(join(side, side, kind, List.of(0, 4, 5, 7), List.of(0, 4, 5, 7), null)).supported());
        }
        assertTrue(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(0, 2, 5), List.of(1, 8, 6), null)).supported(),
                "INTEGER = BIGINT, DECIMAL(12,2) = DECIMAL(18,2), VARCHAR = CHAR");
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.RIGHT, List.of(0), List.of(0), null)).supported());
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.FULL, List.of(0), List.of(0), null)).supported());
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(), List.of(), null)).supported());
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(0), List.of(0), new Literal(true, DataType.BOOLEAN))).supported());
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(0), List.of(2), null)).supported(),
                "INTEGER = DECIMAL(12,2): different scales");
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(0), List.of(3), null)).supported(),
                "INTEGER = DOUBLE");
        assertFalse(GpuHashJoin.supports(join(side, side, JoinKind.INNER, List.of(4), List.of(5), null)).supported(),
                "DATE = VARCHAR");
        String reason = GpuHashJoin.supports(join(side, side, JoinKind.FULL, List.of(0), List.of(0), null)).reason();
        assertTrue(reason.contains("run on the CPU until"), reason);
    }

    // ---- the GPU against the CPU ----

    @Test
    void everySizeOnEitherSide() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.VARCHAR, DataType.decimal(12, 2));
        Schema right = schema(DataType.INTEGER, DataType.DOUBLE);
        for (int leftRows : RandomBatches.SIZES) {
            for (int rightRows : RandomBatches.SIZES) {
                // About max(left, right) output rows: key values repeat about min(left, right) times less.
                int distinct = Math.max(16, Math.min(leftRows, rightRows));
                check(100 + leftRows * 7L + rightRows, left, right, 1,
                        Options.plain().withDistinct(distinct).withNulls(0.1), leftRows, rightRows);
            }
        }
    }

    @Test
    void everyKeyType() {
        GpuTests.assumeGpu();
        for (DataType key : List.of(DataType.INTEGER, DataType.BIGINT, DataType.DATE, DataType.decimal(12, 2),
                DataType.decimal(18, 4), DataType.DOUBLE, DataType.VARCHAR, DataType.BOOLEAN)) {
            Schema left = schema(key, DataType.BIGINT, DataType.VARCHAR);
            Schema right = schema(key, DataType.DATE, DataType.BOOLEAN);
            Options options = Options.plain().withDistinct(40).withNulls(0.1).withExtremes().withVaryingDictionaries();
            // BOOLEAN keys have two values: every pair of a side's rows with equal keys is an output row.
            int[][] sizes = key.equals(DataType.BOOLEAN) ? new int[][] {{33, 2049}, {2049, 31}, {0, 33}, {33, 0}}
                    : new int[][] {{2049, 2047}, {33, 100_003}, {100_003, 31}, {0, 2048}, {2048, 0}};
            for (int[] size : sizes) {
                check(200 + key.hashCode() + size[0], left, right, 1, options, size[0], size[1]);
            }
        }
    }

    @Test
    void multiColumnKeys() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.VARCHAR, DataType.DATE, DataType.BOOLEAN, DataType.BIGINT, DataType.INTEGER);
        Schema right = schema(DataType.VARCHAR, DataType.DATE, DataType.BOOLEAN, DataType.BIGINT, DataType.decimal(18, 4));
        Options options = Options.plain().withDistinct(5).withZipf().withNulls(0.2).withExtremes().withVaryingDictionaries();
        for (int keyCount = 1; keyCount <= 4; keyCount++) {
            for (int[] size : new int[][] {{2049, 33}, {33, 2049}, {1, 2049}, {2049, 0}, {0, 2049}}) {
                check(300 + keyCount * 10L + size[0], left, right, keyCount, options, size[0], size[1]);
            }
        }
    }

    @Test
    void skewedDuplicatesOnBothSides() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.VARCHAR);
        Schema right = schema(DataType.INTEGER, DataType.BIGINT);
        Options options = Options.plain().withDistinct(7).withZipf().withNulls(0.05);
        for (int[] size : new int[][] {{2049, 100}, {100, 2049}, {1, 100_003}, {100_003, 1}, {33, 2049}}) {
            check(400 + size[0], left, right, 1, options, size[0], size[1]);
        }
    }

    @Test
    void keysThatMostlyMissAndStringsOneSideLacks() {
        GpuTests.assumeGpu();
        // Without shared pools: INTEGER keys rarely meet; short random strings sometimes do, through different dictionaries.
        Schema left = schema(DataType.VARCHAR, DataType.INTEGER);
        Schema right = schema(DataType.VARCHAR, DataType.INTEGER);
        for (int[] size : new int[][] {{2049, 2047}, {100_003, 33}}) {
            for (int keyColumn = 0; keyColumn < 2; keyColumn++) {
                RandomBatches random = new RandomBatches(500 + size[0] + keyColumn);
                Options options = Options.plain().withNulls(0.1).withVaryingDictionaries();
                try (ListSource l = randomSource(random, left, size[0], options);
                        ListSource r = randomSource(random, right, size[1], options)) {
                    for (JoinKind kind : KINDS) {
                        compare(l, r, kind, List.of(keyColumn), "seed " + random.seed() + ", key column " + keyColumn + ", " + kind);
                    }
                }
            }
        }
    }

    /** Joins random sources on their first {@code keyCount} columns in every kind. */
    private void check(long seed, Schema left, Schema right, int keyCount, Options options, int leftRows, int rightRows) {
        RandomBatches random = new RandomBatches(seed);
        Options shared = options.withSharedPools(seed);
        List<Integer> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(k);
        }
        try (ListSource l = randomSource(random, left, leftRows, shared);
                ListSource r = randomSource(random, right, rightRows, shared)) {
            for (JoinKind kind : KINDS) {
                compare(l, r, kind, keys, "seed " + seed + ", rows " + leftRows + " x " + rightRows + ", " + keyCount + " key(s), "
                        + kind + ", " + options);
            }
        }
    }

    private void compare(ListSource left, ListSource right, JoinKind kind, List<Integer> keys, String context) {
        JoinNode node = join(scan(left), scan(right), kind, keys, keys, null);
        assertTrue(GpuHashJoin.supports(node).supported(), context);
        assertSameResult(node, left, right, (l, r, work) -> GpuHashJoin.run(node, l, r, work), context);
    }

    /** A join whose output is the left fields then, for kinds that output them, the right ones (nullable for LEFT). */
    private static JoinNode join(PlanNode left, PlanNode right, JoinKind kind, List<Integer> leftKeys, List<Integer> rightKeys,
            Expr residual) {
        List<Field> out = new ArrayList<>(left.schema().fields());
        if (kind.outputsRight()) {
            for (Field f : right.schema().fields()) {
                out.add(new Field("r_" + f.name(), f.type().withNullable(true)));
            }
        }
        return new JoinNode(left, right, kind, leftKeys, rightKeys, residual, new Schema(out));
    }

    private static Schema schema(DataType... types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new Field("c" + i, types[i]));
        }
        return new Schema(fields);
    }
}
