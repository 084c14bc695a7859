package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Op;
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
 * GPU joins against the CPU executor's join on random inputs of every kind, key type and size
 * (either side empty included), with and without residual conditions and keys, through each
 * algorithm that can run them; plus the choice of algorithm, without a GPU. Both inputs draw
 * their keys from the same pools of values ({@link Options#withSharedPools}), so that keys match
 * across the sides with duplicates on both.
 */
class GpuJoinTest extends GpuTestBase {
    private static final List<JoinKind> KINDS = List.of(JoinKind.values());

    @Test
    void supportsJoinsOfComparableKeysAndSaysWhichAlgorithmRunsThem() {
        Schema types = schema(DataType.INTEGER, DataType.BIGINT, DataType.decimal(12, 2), DataType.DOUBLE, DataType.DATE,
                DataType.VARCHAR, DataType.chars(3), DataType.BOOLEAN, DataType.decimal(18, 2));
        PlanNode side;
        try (ListSource empty = new ListSource(types, List.of())) {
            side = scan(empty);
        }
        for (JoinKind kind : KINDS) {
            assertTrue(GpuJoin.supports(join(side, side, kind, List.of(0, 4, 5, 7), List.of(0, 4, 5, 7), null)).supported());
            assertTrue(GpuJoin.supports(join(side, side, kind, List.of(0), List.of(0), lessThan(1, types.size() + 1))).supported());
            assertEquals("nested-loop join", GpuJoin.supports(join(side, side, kind, List.of(), List.of(), lessThan(1, 10))).reason());
        }
        assertTrue(GpuJoin.supports(join(side, side, JoinKind.INNER, List.of(0, 2, 5), List.of(1, 8, 6), null)).supported(),
                "INTEGER = BIGINT, DECIMAL(12,2) = DECIMAL(18,2), VARCHAR = CHAR");
        assertEquals("hash join", GpuJoin.supports(join(side, side, JoinKind.SEMI, List.of(0), List.of(0), null)).reason());
        String outer = GpuJoin.supports(join(side, side, JoinKind.FULL, List.of(0), List.of(0), null)).reason();
        assertEquals(GpuMergeJoin.unsupportedKeys(join(side, side, JoinKind.FULL, List.of(0), List.of(0), null)) == null
                ? "sort-merge join" : "hash join", outer);
        assertFalse(GpuJoin.supports(join(side, side, JoinKind.INNER, List.of(0), List.of(2), null)).supported(),
                "INTEGER = DECIMAL(12,2): different scales");
        assertFalse(GpuJoin.supports(join(side, side, JoinKind.INNER, List.of(0), List.of(3), null)).supported(),
                "INTEGER = DOUBLE");
        for (Expr residual : stringResiduals()) {
            Schema strings = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);
            try (ListSource empty = new ListSource(strings, List.of())) {
                assertTrue(GpuJoin.supports(join(scan(empty), scan(empty), JoinKind.INNER, List.of(0), List.of(0), residual)).supported(),
                        residual.toString());
            }
        }
        String reason = GpuJoin.supports(join(side, side, JoinKind.INNER, List.of(4), List.of(5), null)).reason();
        assertTrue(reason.contains("DATE = VARCHAR"), reason);
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
                DataType.decimal(18, 4), DataType.decimal(38, 2), DataType.decimal(24, 0), DataType.DOUBLE, DataType.VARCHAR,
                DataType.BOOLEAN)) {
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

    @Test
    void residualConditionsInEveryKind() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);
        Schema right = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);
        Options options = Options.plain().withDistinct(9).withZipf().withNulls(0.1).withVaryingDictionaries();
        for (int[] size : new int[][] {{0, 33}, {33, 0}, {1, 1}, {31, 32}, {2049, 2047}, {100_003, 33}}) {
            RandomBatches random = new RandomBatches(600 + size[0]);
            Options shared = options.withSharedPools(600 + size[0]);
            try (ListSource l = randomSource(random, left, size[0], shared); ListSource r = randomSource(random, right, size[1], shared)) {
                // L.c1 < R.c1 (as Q21's l1.l_suppkey <> l2.l_suppkey), and one reading strings and NULLs of both sides.
                Expr numbers = lessThan(1, 4);
                Expr mixed = Call.of(Op.OR, DataType.BOOLEAN, Call.of(Op.IS_NULL, DataType.BOOLEAN, new ColumnRef(5, DataType.VARCHAR)),
                        Call.of(Op.AND, DataType.BOOLEAN, Call.of(Op.IS_NOT_NULL, DataType.BOOLEAN, new ColumnRef(2, DataType.VARCHAR)),
                                lessThan(4, 1)));
                for (JoinKind kind : KINDS) {
                    for (Expr residual : List.of(numbers, mixed)) {
                        compare(join(scan(l), scan(r), kind, List.of(0), List.of(0), residual),
                                "seed " + random.seed() + ", rows " + size[0] + " x " + size[1] + ", " + kind + " on " + residual);
                    }
                }
            }
        }
    }

    /** Residuals comparing strings of both sides (TPC-DS q19, q24, q46, q64, q68), each side with its own dictionaries. */
    @Test
    void stringComparisonResidualsInEveryKind() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);
        Schema right = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR);
        Options options = Options.plain().withDistinct(9).withNulls(0.1).withVaryingDictionaries();
        for (int[] size : new int[][] {{0, 33}, {33, 0}, {1, 1}, {31, 32}, {33, 33}, {2049, 2047}}) {
            RandomBatches random = new RandomBatches(800 + size[0]);
            Options shared = options.withSharedPools(800 + size[0]);
            try (ListSource l = randomSource(random, left, size[0], shared); ListSource r = randomSource(random, right, size[1], shared)) {
                for (JoinKind kind : KINDS) {
                    for (Expr residual : stringResiduals()) {
                        compare(join(scan(l), scan(r), kind, List.of(0), List.of(0), residual),
                                "seed " + random.seed() + ", rows " + size[0] + " x " + size[1] + ", " + kind + " on " + residual);
                    }
                }
            }
        }
    }

    /** Comparisons of column 2 (left) with column 5 (right), both VARCHAR, as TPC-DS writes them. */
    static List<Expr> stringResiduals() {
        ColumnRef l = new ColumnRef(2, DataType.VARCHAR);
        ColumnRef r = new ColumnRef(5, DataType.VARCHAR);
        Expr first = io.warpdb.core.expr.Literal.ofLong(1, DataType.BIGINT);
        Expr two = io.warpdb.core.expr.Literal.ofLong(2, DataType.BIGINT);
        return List.of(Call.of(Op.NE, DataType.BOOLEAN, l, r),
                Call.of(Op.LT, DataType.BOOLEAN, l, r),
                Call.of(Op.NE, DataType.BOOLEAN, l, Call.of(Op.UPPER, DataType.VARCHAR, r)),
                Call.of(Op.NE, DataType.BOOLEAN, Call.of(Op.SUBSTRING, DataType.VARCHAR, l, first, two),
                        Call.of(Op.SUBSTRING, DataType.VARCHAR, r, first, two)));
    }

    @Test
    void joinsWithoutKeys() {
        GpuTests.assumeGpu();
        Schema left = schema(DataType.INTEGER, DataType.BIGINT);
        Schema right = schema(DataType.INTEGER, DataType.BIGINT);
        Options options = Options.plain().withDistinct(50).withNulls(0.1);
        for (int[] size : new int[][] {{0, 1}, {1, 0}, {1, 1}, {2049, 1}, {33, 31}, {1, 100_003}}) {
            RandomBatches random = new RandomBatches(700 + size[0] + size[1]);
            try (ListSource l = randomSource(random, left, size[0], options); ListSource r = randomSource(random, right, size[1], options)) {
                for (JoinKind kind : KINDS) {
                    // A scalar sub-query's comparison (TPC-H Q11, Q22), and a plain cross product for INNER.
                    compare(join(scan(l), scan(r), kind, List.of(), List.of(), lessThan(1, 3)),
                            "seed " + random.seed() + ", rows " + size[0] + " x " + size[1] + ", " + kind + " without keys");
                }
                compare(join(scan(l), scan(r), JoinKind.INNER, List.of(), List.of(), null), "cross product " + size[0] + " x " + size[1]);
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
        compare(join(scan(left), scan(right), kind, keys, keys, null), context);
    }

    /** The join on the GPU, by the algorithm the rule picks and by each one forced, against the CPU. */
    private void compare(JoinNode node, String context) {
        assertTrue(GpuJoin.supports(node).supported(), context);
        List<String> algorithms = new ArrayList<>(List.of(""));
        if (!node.leftKeys().isEmpty()) {
            algorithms.add("hash");
            if (GpuMergeJoin.unsupportedKeys(node) == null) {
                algorithms.add("merge");
            }
        }
        for (String algorithm : algorithms) {
            System.setProperty(JoinStrategy.OVERRIDE_PROPERTY, algorithm);
            try {
                assertSameOnGpu(node, false, context + (algorithm.isEmpty() ? "" : ", forced " + algorithm));
            } finally {
                System.clearProperty(JoinStrategy.OVERRIDE_PROPERTY);
            }
        }
    }

    /** {@code $a < $b} over the left columns followed by the right ones, both BIGINT-comparable. */
    private static Expr lessThan(int a, int b) {
        return Call.of(Op.LT, DataType.BOOLEAN, new ColumnRef(a, DataType.BIGINT), new ColumnRef(b, DataType.BIGINT));
    }

    /** A join whose output is the left fields then, for kinds that output them, the right ones (nullable on outer sides). */
    static JoinNode join(PlanNode left, PlanNode right, JoinKind kind, List<Integer> leftKeys, List<Integer> rightKeys,
            Expr residual) {
        List<Field> out = new ArrayList<>(left.schema().fields());
        if (kind.outputsRight()) {
            for (Field f : right.schema().fields()) {
                out.add(new Field("r_" + f.name(), f.type().withNullable(true)));
            }
        }
        if (kind == JoinKind.RIGHT || kind == JoinKind.FULL) {
            for (int i = 0; i < left.schema().size(); i++) {
                out.set(i, new Field(out.get(i).name(), out.get(i).type().withNullable(true)));
            }
        }
        return new JoinNode(left, right, kind, leftKeys, rightKeys, residual, new Schema(out));
    }

    static Schema schema(DataType... types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(new Field("c" + i, types[i]));
        }
        return new Schema(fields);
    }
}
