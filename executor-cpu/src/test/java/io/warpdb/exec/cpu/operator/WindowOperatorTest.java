package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFrame.Bound;
import io.warpdb.core.plan.WindowFrame.BoundKind;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The window operator against a row-at-a-time reference on inputs of many partitions, NULL
 * partition and order keys, ties, and frames of every kind, on one and on several workers; and
 * its edge cases: empty input, string values and defaults, bad arguments.
 */
class WindowOperatorTest extends ExecTestBase {
    private static final WindowFrame ROWS_3_PRECEDING_1_FOLLOWING = new WindowFrame(true,
            new Bound(BoundKind.PRECEDING, 3), new Bound(BoundKind.FOLLOWING, 1));
    private static final WindowFrame ROWS_2_AROUND = new WindowFrame(true,
            new Bound(BoundKind.PRECEDING, 2), new Bound(BoundKind.FOLLOWING, 2));
    private static final WindowFrame RANGE_5_PRECEDING = new WindowFrame(false,
            new Bound(BoundKind.PRECEDING, 5), Bound.CURRENT_ROW);

    /** (id, g, k, v): g partitions of about 100 rows, k 21 values (ties), NULLs in g, k and v. */
    private static TestTable table(int rows) {
        List<List<Object>> data = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            data.add(row(i, i % 17 == 0 ? null : (i * 7919) % (rows / 100 + 1), i % 13 == 0 ? null : (i * 31) % 21,
                    i % 7 == 0 ? null : (long) ((i * 104729) % 2001 - 1000)));
        }
        int[] sizes = new int[(rows + 9999) / 10000];
        for (int b = 0; b < sizes.length; b++) {
            sizes[b] = Math.min(10000, rows - b * 10000);
        }
        return TestTable.of("t", "id", INT, "g", INT, "k", INT, "v", BIGINT).batches(data, sizes);
    }

    private static WindowCall call(WindowFunction function, WindowFrame frame, Expr... args) {
        return new WindowCall(function, List.of(args), frame, BIGINT, function.name().toLowerCase());
    }

    private static WindowNode window(PlanNode input, List<Integer> partitionKeys, List<SortKey> orderKeys,
            List<WindowCall> calls) {
        List<Field> fields = new ArrayList<>(input.schema().fields());
        calls.forEach(c -> fields.add(new Field(c.name(), c.type())));
        return new WindowNode(input, partitionKeys, orderKeys, calls, new Schema(fields));
    }

    private ExecContext context(int parallelism) {
        ExecContext context = new ExecContext(allocator);
        context.setParallelism(parallelism);
        return context;
    }

    @Test
    void matchesTheReferenceOnOneAndOnSeveralWorkers() {
        TestTable t = table(60_000);
        WindowFrame defaultFrame = WindowFrame.RANGE_TO_CURRENT_ROW;
        WindowNode node = window(scan(t), List.of(1), List.of(new SortKey(2, false, false)), List.of(
                call(WindowFunction.ROW_NUMBER, defaultFrame),
                call(WindowFunction.RANK, defaultFrame),
                call(WindowFunction.SUM, ROWS_3_PRECEDING_1_FOLLOWING, col(3, BIGINT)),
                call(WindowFunction.MIN, ROWS_2_AROUND, col(3, BIGINT)),
                call(WindowFunction.MAX, RANGE_5_PRECEDING, col(3, BIGINT)),
                call(WindowFunction.LAG, defaultFrame, col(3, BIGINT), lit(2)),
                call(WindowFunction.COUNT_STAR, defaultFrame)));
        List<List<Object>> expected = reference(run(scan(t)));
        for (int parallelism : new int[] {1, 4}) {
            List<List<Object>> actual = new ArrayList<>(run(node, context(parallelism)));
            actual.sort(Comparator.comparing(r -> (Integer) r.get(0)));
            assertEquals(expected, actual, "parallelism " + parallelism);
        }
    }

    /** The calls of the test above, row by row: input rows sorted stably by (g, k NULLS LAST). */
    private static List<List<Object>> reference(List<List<Object>> input) {
        Map<Object, List<List<Object>>> partitions = new LinkedHashMap<>();
        for (List<Object> r : input) {
            partitions.computeIfAbsent(Objects.requireNonNullElse(r.get(1), "null"), g -> new ArrayList<>()).add(r);
        }
        Comparator<List<Object>> byK = Comparator.comparing(r -> (Integer) r.get(2),
                Comparator.nullsLast(Comparator.naturalOrder()));
        List<List<Object>> out = new ArrayList<>();
        for (List<List<Object>> p : partitions.values()) {
            p.sort(byK);
            for (int i = 0; i < p.size(); i++) {
                Integer k = (Integer) p.get(i).get(2);
                int firstPeer = i;
                while (firstPeer > 0 && Objects.equals(p.get(firstPeer - 1).get(2), k)) {
                    firstPeer--;
                }
                int lastPeer = i;
                while (lastPeer < p.size() - 1 && Objects.equals(p.get(lastPeer + 1).get(2), k)) {
                    lastPeer++;
                }
                Long sum = null;
                Long min = null;
                Long max = null;
                for (int j = Math.max(0, i - 3); j <= Math.min(p.size() - 1, i + 2); j++) {
                    Long v = (Long) p.get(j).get(3);
                    if (v != null && j <= i + 1) {
                        sum = sum == null ? v : sum + v;
                    }
                    if (v != null && j >= i - 2) {
                        min = min == null ? v : Math.min(min, v);
                    }
                }
                for (List<Object> other : p) {
                    Integer ok = (Integer) other.get(2);
                    Long v = (Long) other.get(3);
                    boolean inRange = k == null ? ok == null : ok != null && ok >= k - 5 && ok <= k;
                    if (inRange && v != null) {
                        max = max == null ? v : Math.max(max, v);
                    }
                }
                List<Object> r = new ArrayList<>(p.get(i));
                r.addAll(List.of((long) i + 1, (long) firstPeer + 1));
                r.add(sum);
                r.add(min);
                r.add(max);
                r.add(i >= 2 ? p.get(i - 2).get(3) : null);
                r.add((long) lastPeer + 1);
                out.add(r);
            }
        }
        out.sort(Comparator.comparing(r -> (Integer) r.get(0)));
        return out;
    }

    private final TestTable fruit = TestTable.of("f", "g", VARCHAR, "name", VARCHAR, "price", dec(6, 2))
            .batch(row("x", "pear", bd("1.10")), row("x", "apple", null))
            .batch()
            .batch(row("y", "fig", bd("9999.99")), row(null, "kiwi", bd("0.01")), row("x", null, bd("-2.00")))
            .nonUniqueDictionaries();

    @Test
    void stringValuesDefaultsAndExactDecimalSums() {
        WindowFrame whole = WindowFrame.WHOLE_PARTITION;
        List<WindowCall> calls = List.of(
                new WindowCall(WindowFunction.LAG, List.of(col(1, VARCHAR), lit(1), str("none")), whole, VARCHAR, "lag"),
                new WindowCall(WindowFunction.MAX, List.of(col(1, VARCHAR)), whole, VARCHAR, "max"),
                new WindowCall(WindowFunction.SUM, List.of(col(2, dec(6, 2))), whole, dec(18, 2), "sum"),
                new WindowCall(WindowFunction.AVG, List.of(col(2, dec(6, 2))), whole, DOUBLE, "avg"));
        WindowNode node = window(scan(fruit), List.of(0), List.of(new SortKey(2, false, true)), calls);
        List<List<Object>> rows = new ArrayList<>(run(node));
        rows.sort(Comparator.comparing(r -> String.valueOf(r.get(1))));
        assertEquals(List.of(
                row("x", "apple", null, "none", "pear", bd("-0.90"), -0.45),
                row("y", "fig", bd("9999.99"), "none", "fig", bd("9999.99"), 9999.99),
                row(null, "kiwi", bd("0.01"), "none", "kiwi", bd("0.01"), 0.01),
                row("x", null, bd("-2.00"), "apple", "pear", bd("-0.90"), -0.45),
                row("x", "pear", bd("1.10"), null, "pear", bd("-0.90"), -0.45)), rows);
    }

    /**
     * DOUBLE sums over frames whose start moves, on partitions of 1 to 1000 rows whose values mix
     * +-1e18 with eighths (so every exact frame sum is a double): each frame's sum is the exact one,
     * rounded once, though huge values entered and left the frames before it.
     */
    @Test
    void doubleFrameSumsKeepSmallValuesAfterHugeOnes() {
        Random random = new Random(42);
        List<List<Object>> data = new ArrayList<>();
        int id = 0;
        for (int size : new int[] {1, 2, 3, 5, 31, 32, 33, 100, 1000}) {
            for (int i = 0; i < size; i++) {
                int kind = random.nextInt(10);
                Double x = kind == 0 ? null : kind == 1 ? (random.nextBoolean() ? 1e18 : -1e18) : (random.nextInt(2001) - 1000) / 8.0;
                data.add(row(id++, size, x));
            }
        }
        TestTable t = TestTable.of("t", "id", INT, "g", INT, "x", DOUBLE).batches(data, new int[] {data.size()});
        WindowFrame following = new WindowFrame(true, new Bound(BoundKind.FOLLOWING, 1), new Bound(BoundKind.FOLLOWING, 4));
        WindowFrame toEnd = new WindowFrame(true, Bound.CURRENT_ROW, Bound.UNBOUNDED_FOLLOWING);
        WindowNode node = window(scan(t), List.of(1), List.of(new SortKey(0, false, false)), List.of(
                new WindowCall(WindowFunction.SUM, List.of(col(2, DOUBLE)), ROWS_3_PRECEDING_1_FOLLOWING, DOUBLE, "sum"),
                new WindowCall(WindowFunction.AVG, List.of(col(2, DOUBLE)), following, DOUBLE, "avg"),
                new WindowCall(WindowFunction.SUM, List.of(col(2, DOUBLE)), toEnd, DOUBLE, "sum_to_end")));
        List<List<Object>> expected = new ArrayList<>();
        for (int first = 0; first < data.size(); ) {
            int size = (Integer) data.get(first).get(1);
            for (int i = 0; i < size; i++) {
                List<Object> r = new ArrayList<>(data.get(first + i));
                List<List<Object>> partition = data.subList(first, first + size);
                r.add(exactSum(partition, i - 3, i + 2, false));
                r.add(exactSum(partition, i + 1, i + 5, true));
                r.add(exactSum(partition, i, size, false));
                expected.add(r);
            }
            first += size;
        }
        for (int parallelism : new int[] {1, 4}) {
            List<List<Object>> actual = new ArrayList<>(run(node, context(parallelism)));
            actual.sort(Comparator.comparing(r -> (Integer) r.get(0)));
            assertEquals(expected, actual, "parallelism " + parallelism);
        }
    }

    /** The exact sum (or average) of the non-NULL x of partition rows [from, to), clipped, rounded once; NULL for none. */
    private static Double exactSum(List<List<Object>> partition, int from, int to, boolean average) {
        BigDecimal sum = BigDecimal.ZERO;
        int count = 0;
        for (int j = Math.max(0, from); j < Math.min(partition.size(), to); j++) {
            Double x = (Double) partition.get(j).get(2);
            if (x != null) {
                sum = sum.add(new BigDecimal(x));
                count++;
            }
        }
        return count == 0 ? null : average ? sum.doubleValue() / count : sum.doubleValue();
    }

    /**
     * SUM (DECIMAL(38, 2)) and AVG (DOUBLE) of a wide DECIMAL over sliding, running and
     * whole-partition frames, with values of every sign and size (the lower words carry into the
     * upper ones): each frame's sum exact, as BigDecimal adds it.
     */
    @Test
    void sumsAndAveragesOfWideDecimals() {
        DataType wide = dec(38, 2);
        Random random = new Random(11);
        List<List<Object>> data = new ArrayList<>();
        for (int i = 0; i < 900; i++) {
            // At most 35 digits: no frame of 300 values reaches 38.
            BigInteger unscaled = new BigInteger(1 + random.nextInt(116), random).mod(BigInteger.TEN.pow(35));
            data.add(row(i, i % 3, i % 10 == 0 ? null : new BigDecimal(random.nextBoolean() ? unscaled.negate() : unscaled, 2)));
        }
        TestTable t = TestTable.of("t", "id", INT, "g", INT, "w", wide).batches(data, 400, 500);
        WindowFrame running = new WindowFrame(true, Bound.UNBOUNDED_PRECEDING, Bound.CURRENT_ROW);
        List<WindowFrame> frames = List.of(ROWS_3_PRECEDING_1_FOLLOWING, running, WindowFrame.WHOLE_PARTITION);
        List<WindowCall> calls = new ArrayList<>();
        for (WindowFrame frame : frames) {
            calls.add(new WindowCall(WindowFunction.SUM, List.of(col(2, wide)), frame, wide, "sum"));
            calls.add(new WindowCall(WindowFunction.AVG, List.of(col(2, wide)), frame, DOUBLE, "avg"));
        }
        WindowNode node = window(scan(t), List.of(1), List.of(new SortKey(0, false, false)), calls);
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            List<Object> r = new ArrayList<>(data.get(i));
            int place = i / 3;
            int size = data.size() / 3;
            for (int[] bounds : new int[][] {{place - 3, place + 2}, {0, place + 1}, {0, size}}) {
                BigDecimal sum = null;
                int count = 0;
                for (int j = Math.max(0, bounds[0]); j < Math.min(size, bounds[1]); j++) {
                    BigDecimal w = (BigDecimal) data.get(3 * j + i % 3).get(2);
                    if (w != null) {
                        sum = sum == null ? w : sum.add(w);
                        count++;
                    }
                }
                r.add(sum);
                r.add(sum == null ? null : ExactQuotients.toDouble(sum.unscaledValue().shiftRight(64).longValue(),
                        sum.unscaledValue().longValue(), 2, count));
            }
            expected.add(r);
        }
        for (int parallelism : new int[] {1, 4}) {
            List<List<Object>> actual = new ArrayList<>(run(node, context(parallelism)));
            actual.sort(Comparator.comparing(r -> (Integer) r.get(0)));
            assertEquals(expected, actual, "parallelism " + parallelism);
        }
    }

    /**
     * Wide DECIMALs at their limit: the running prefix sums pass 128 bits, yet a frame of one value
     * is that value; a frame's SUM beyond 38 digits, or its sum beyond 128 bits for AVG, is 22003.
     */
    @Test
    void wideDecimalFramesAtTheirLimits() {
        DataType wide = dec(38, 0);
        BigDecimal largest = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE));
        List<List<Object>> data = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            data.add(row(i, largest));
        }
        TestTable t = TestTable.of("t", "id", INT, "w", wide).batches(data, data.size());
        WindowFrame current = new WindowFrame(true, Bound.CURRENT_ROW, Bound.CURRENT_ROW);
        List<SortKey> order = List.of(new SortKey(0, false, false));
        WindowNode single = window(scan(t), List.of(), order, List.of(
                new WindowCall(WindowFunction.SUM, List.of(col(1, wide)), current, wide, "sum"),
                new WindowCall(WindowFunction.AVG, List.of(col(1, wide)), current, DOUBLE, "avg")));
        for (List<Object> r : run(single)) {
            assertEquals(List.of(largest, 1e38), r.subList(2, 4));
        }
        for (WindowCall pairs : List.of(
                new WindowCall(WindowFunction.SUM, List.of(col(1, wide)), ROWS_2_AROUND, wide, "sum"),
                new WindowCall(WindowFunction.AVG, List.of(col(1, wide)), ROWS_2_AROUND, DOUBLE, "avg"))) {
            runFailing(window(scan(t), List.of(), order, List.of(pairs)), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        }
    }

    @Test
    void emptyInputGivesNoRows() {
        TestTable empty = TestTable.of("e", "a", INT).batch();
        WindowNode node = window(scan(empty), List.of(), List.of(new SortKey(0, false, false)),
                List.of(call(WindowFunction.ROW_NUMBER, WindowFrame.RANGE_TO_CURRENT_ROW),
                        call(WindowFunction.SUM, WindowFrame.WHOLE_PARTITION, col(0, INT))));
        assertEquals(List.of(), run(node));
    }

    @Test
    void badArgumentsFailWithTheirSqlState() {
        TestTable one = TestTable.of("o", "a", INT).batch(row(1));
        runFailing(window(scan(one), List.of(), List.of(),
                List.of(call(WindowFunction.NTILE, WindowFrame.WHOLE_PARTITION, lit(0)))), SqlState.INVALID_PARAMETER_VALUE);
        runFailing(window(scan(one), List.of(), List.of(),
                List.of(call(WindowFunction.NTILE, WindowFrame.WHOLE_PARTITION, col(0, INT)))), SqlState.FEATURE_NOT_SUPPORTED);
        runFailing(window(scan(one), List.of(), List.of(new SortKey(0, false, false), new SortKey(0, true, false)),
                List.of(call(WindowFunction.COUNT_STAR, RANGE_5_PRECEDING))), SqlState.FEATURE_NOT_SUPPORTED);
    }
}
