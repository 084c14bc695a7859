package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class JoinTest extends ExecTestBase {
    private final TestTable left = TestTable.of("l", "id", INT, "k", VARCHAR, "v", INT)
            .batch(row(1, "a", 10), row(2, "b", 20))
            .batch()
            .batch(row(3, null, 30), row(4, "a", 40), row(5, "c", 50));
    /** Non-unique dictionaries: keys must be matched by value. */
    private final TestTable right = TestTable.of("r", "k", VARCHAR, "w", INT)
            .batch(row("a", 100))
            .batch(row("a", 101), row("b", 200), row(null, 300))
            .batch()
            .batch(row("d", 400))
            .nonUniqueDictionaries();

    private static JoinNode join(PlanNode l, PlanNode r, JoinKind kind, List<Integer> lk, List<Integer> rk, Expr residual) {
        Schema schema = kind.outputsRight() ? l.schema().concat(r.schema()) : l.schema();
        return new JoinNode(l, r, kind, lk, rk, residual, schema);
    }

    private List<List<Object>> joinOnK(JoinKind kind, Expr residual) {
        return sorted(run(join(scan(left), scan(right), kind, List.of(1), List.of(0), residual)));
    }

    /** v + w > 120 over (id, k, v, k, w). */
    private static final Expr SUM_ABOVE_120 = call(Op.GT, BOOL, call(Op.ADD, INT, col(2, INT), col(4, INT)), lit(120));

    @Test
    void innerJoinMatchesDuplicatesAndNeverNullKeys() {
        assertEquals(List.of(row(1, "a", 10, "a", 100), row(1, "a", 10, "a", 101), row(2, "b", 20, "b", 200),
                row(4, "a", 40, "a", 100), row(4, "a", 40, "a", 101)), joinOnK(JoinKind.INNER, null));
        assertEquals(List.of(row(2, "b", 20, "b", 200), row(4, "a", 40, "a", 100), row(4, "a", 40, "a", 101)),
                joinOnK(JoinKind.INNER, SUM_ABOVE_120));
    }

    @Test
    void outerJoinsAddUnmatchedRowsWithNulls() {
        assertEquals(List.of(row(1, "a", 10, "a", 100), row(1, "a", 10, "a", 101), row(2, "b", 20, "b", 200),
                row(3, null, 30, null, null), row(4, "a", 40, "a", 100), row(4, "a", 40, "a", 101), row(5, "c", 50, null, null)),
                joinOnK(JoinKind.LEFT, null));
        assertEquals(List.of(row(null, null, null, null, 300), row(null, null, null, "d", 400), row(1, "a", 10, "a", 100),
                row(1, "a", 10, "a", 101), row(2, "b", 20, "b", 200), row(4, "a", 40, "a", 100), row(4, "a", 40, "a", 101)),
                joinOnK(JoinKind.RIGHT, null));
        assertEquals(List.of(row(null, null, null, null, 300), row(null, null, null, "d", 400), row(1, "a", 10, null, null),
                row(2, "b", 20, "b", 200), row(3, null, 30, null, null), row(4, "a", 40, "a", 100), row(4, "a", 40, "a", 101),
                row(5, "c", 50, null, null)), joinOnK(JoinKind.FULL, SUM_ABOVE_120));
        assertEquals(List.of(row(null, null, null, null, 300), row(null, null, null, "a", 100), row(null, null, null, "a", 101),
                row(null, null, null, "d", 400), row(2, "b", 20, "b", 200)),
                joinOnK(JoinKind.RIGHT, call(Op.EQ, BOOL, col(2, INT), lit(20))));
    }

    @Test
    void semiAndAntiJoinsOutputLeftRowsOnce() {
        assertEquals(List.of(row(1, "a", 10), row(2, "b", 20), row(4, "a", 40)), joinOnK(JoinKind.SEMI, null));
        assertEquals(List.of(row(3, null, 30), row(5, "c", 50)), joinOnK(JoinKind.ANTI, null));
        assertEquals(List.of(row(2, "b", 20), row(4, "a", 40)), joinOnK(JoinKind.SEMI, SUM_ABOVE_120));
        assertEquals(List.of(row(1, "a", 10), row(3, null, 30), row(5, "c", 50)), joinOnK(JoinKind.ANTI, SUM_ABOVE_120));
    }

    @Test
    void withoutKeysItIsANestedLoopOnTheResidual() {
        TestTable one = TestTable.of("avg", "a", dec(10, 2)).batch(row(bd("25.00")));
        Expr above = call(Op.GT, BOOL, col(2, INT), col(3, dec(10, 2)));
        assertEquals(List.of(row(3, null, 30, bd("25.00")), row(4, "a", 40, bd("25.00")), row(5, "c", 50, bd("25.00"))),
                sorted(run(join(scan(left), scan(one), JoinKind.INNER, List.of(), List.of(), above))));
        // Cross product without any condition.
        assertEquals(5 * 5, run(join(scan(left), scan(right), JoinKind.INNER, List.of(), List.of(), null)).size());
        // Against an empty right side.
        TestTable none = TestTable.of("none", "a", dec(10, 2)).batch();
        assertEquals(List.of(row(1, "a", 10, null), row(2, "b", 20, null), row(3, null, 30, null), row(4, "a", 40, null),
                row(5, "c", 50, null)), sorted(run(join(scan(left), scan(none), JoinKind.LEFT, List.of(), List.of(), above))));
        assertEquals(List.of(), run(join(scan(left), scan(none), JoinKind.INNER, List.of(), List.of(), null)));
        assertEquals(5, run(join(scan(left), scan(none), JoinKind.ANTI, List.of(), List.of(), null)).size());
    }

    @Test
    void keysOfDifferentNumericTypesMatchByValue() {
        TestTable ints = TestTable.of("i", "n", INT).batch(row(1), row(2), row(3), row((Object) null));
        TestTable decimals = TestTable.of("d", "x", dec(10, 2)).batch(row(bd("2.00")), row(bd("2.50")), row(bd("3.00")));
        assertEquals(List.of(row(2, bd("2.00")), row(3, bd("3.00"))),
                sorted(run(join(scan(ints), scan(decimals), JoinKind.INNER, List.of(0), List.of(0), null))));
        TestTable doubles = TestTable.of("f", "x", DOUBLE).batch(row(3.0), row(-0.0), row(1.5));
        TestTable zeros = TestTable.of("z", "n", BIGINT).batch(row(0L), row(3L));
        assertEquals(List.of(row(3.0, 3L), row(-0.0, 0L)),
                sorted(run(join(scan(doubles), scan(zeros), JoinKind.INNER, List.of(0), List.of(0), null))));
    }

    @Test
    void manyPairsFromOneRowAreEmittedInChunks() {
        List<List<Object>> rightRows = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            rightRows.add(row(7, i));
        }
        TestTable probe = TestTable.of("p", "k", INT).batch(row(7), row(8), row(7));
        TestTable build = TestTable.of("b", "k", INT, "i", INT).batches(rightRows, 50_000, 50_000);
        List<List<Object>> out = run(join(scan(probe), scan(build), JoinKind.INNER, List.of(0), List.of(0), null));
        assertEquals(200_000, out.size());
        // The three probe rows are few enough to be indexed instead (AdaptiveJoinOperator): each
        // 50 K-row build batch then streams past them and its 100 K pairs leave in two chunks.
        assertEquals(List.of(65_536, 34_464, 65_536, 34_464), batchSizes);
    }

    /** A left input too large to index instead streams past the planned build of the right one, as the plan says. */
    @Test
    void aLeftInputTooLargeToIndexProbesThePlannedBuild() {
        int leftCount = AdaptiveJoinOperator.MAX_LEFT_BUILD_ROWS + 5_000;
        List<List<Object>> leftRows = new ArrayList<>();
        for (int i = 0; i < leftCount; i++) {
            leftRows.add(row(i % 1000, i));
        }
        List<List<Object>> rightRows = new ArrayList<>();
        for (int k = 0; k < 1000; k += 2) {
            rightRows.add(row(k, k * 10));
        }
        TestTable l = TestTable.of("l", "k", INT, "i", INT).batches(leftRows, 30_000, 30_000, leftCount - 60_000);
        TestTable r = TestTable.of("r", "k", INT, "v", INT).batches(rightRows, rightRows.size());
        // Even keys match; the residual keeps the pairs whose left row number is not a multiple of 3.
        Expr residual = call(Op.NE, BOOL, call(Op.MOD, INT, col(1, INT), lit(3)), lit(0));
        List<List<Object>> out = run(join(scan(l), scan(r), JoinKind.INNER, List.of(0), List.of(0), residual));
        long expected = 0;
        for (int i = 0; i < leftCount; i++) {
            expected += (i % 1000) % 2 == 0 && i % 3 != 0 ? 1 : 0;
        }
        assertEquals(expected, out.size());
        assertTrue(out.stream().allMatch(row -> (int) row.get(2) == (int) row.get(0) && (int) row.get(3) == 10 * (int) row.get(0)));
    }

    /** Differential test against a nested-loop reference on random data with duplicates and NULLs. */
    @ParameterizedTest
    @EnumSource(JoinKind.class)
    void agreesWithANestedLoopReference(JoinKind kind) {
        Random random = new Random(kind.ordinal());
        for (int round = 0; round < 5; round++) {
            List<List<Object>> leftRows = randomRows(random, 40);
            List<List<Object>> rightRows = randomRows(random, 30);
            TestTable l = TestTable.of("l", "k1", INT, "k2", VARCHAR, "v", INT).batches(leftRows, 10, 0, 25, 5);
            TestTable r = TestTable.of("r", "k1", BIGINT, "k2", VARCHAR, "v", INT).batches(rightRows, 3, 27, 0)
                    .nonUniqueDictionaries();
            Expr residual = round % 2 == 0 ? null
                    : call(Op.NE, BOOL, call(Op.MOD, INT, call(Op.ADD, INT, col(2, INT), col(5, INT)), lit(3)), lit(0));
            List<Integer> leftKeys = round == 4 ? List.of() : List.of(0, 1);
            List<Integer> rightKeys = round == 4 ? List.of() : List.of(0, 1);
            List<List<Object>> actual = run(join(scan(l), scan(r), kind, leftKeys, rightKeys, residual));
            assertEquals(sorted(reference(kind, leftRows, rightRows, leftKeys.size(), residual != null)), sorted(actual),
                    kind + " round " + round);
        }
    }

    private static List<List<Object>> randomRows(Random random, int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Integer k1 = random.nextInt(5) == 0 ? null : random.nextInt(4);
            String k2 = random.nextInt(6) == 0 ? null : List.of("x", "y").get(random.nextInt(2));
            rows.add(row(k1, k2, random.nextInt(10)));
        }
        return rows;
    }

    private static List<List<Object>> reference(JoinKind kind, List<List<Object>> left, List<List<Object>> right, int keyCount,
            boolean residual) {
        List<List<Object>> out = new ArrayList<>();
        boolean[] rightMatched = new boolean[right.size()];
        for (List<Object> l : left) {
            boolean matched = false;
            for (int j = 0; j < right.size(); j++) {
                List<Object> r = right.get(j);
                if (keysEqual(l, r, keyCount) && (!residual || ((Integer) l.get(2) + (Integer) r.get(2)) % 3 != 0)) {
                    matched = true;
                    rightMatched[j] = true;
                    if (kind.outputsRight()) {
                        out.add(concat(l, r));
                    }
                }
            }
            if (kind == JoinKind.SEMI && matched || kind == JoinKind.ANTI && !matched) {
                out.add(l);
            }
            if ((kind == JoinKind.LEFT || kind == JoinKind.FULL) && !matched) {
                out.add(concat(l, Arrays.asList(null, null, null)));
            }
        }
        if (kind == JoinKind.RIGHT || kind == JoinKind.FULL) {
            for (int j = 0; j < right.size(); j++) {
                if (!rightMatched[j]) {
                    out.add(concat(Arrays.asList(null, null, null), right.get(j)));
                }
            }
        }
        // The right side's first key is BIGINT: results carry Longs there.
        return out.stream().map(row -> row.size() > 3 && row.get(3) != null ? withLong(row, 3) : row).toList();
    }

    /** SQL equality of the first keyCount columns: NULL equals nothing; column 0 is a number, column 1 a string. */
    private static boolean keysEqual(List<Object> l, List<Object> r, int keyCount) {
        for (int k = 0; k < keyCount; k++) {
            Object a = l.get(k);
            Object b = r.get(k);
            if (a == null || b == null) {
                return false;
            }
            boolean equal = k == 0 ? ((Number) a).longValue() == ((Number) b).longValue() : a.equals(b);
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> withLong(List<Object> row, int column) {
        List<Object> copy = new ArrayList<>(row);
        copy.set(column, ((Number) row.get(column)).longValue());
        return copy;
    }

    private static List<Object> concat(List<Object> a, List<Object> b) {
        List<Object> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(JoinTest::sortKey));
        return copy;
    }

    private static String sortKey(List<Object> row) {
        StringBuilder sb = new StringBuilder();
        for (Object v : row) {
            // NULL first; numbers right-aligned so that non-negative ones sort by value.
            sb.append(v == null ? "\0" : String.format("%20s", v)).append('|');
        }
        return sb.toString();
    }
}
