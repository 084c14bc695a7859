package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AggregateTest extends ExecTestBase {
    private static TestTable sales(boolean nonUnique) {
        TestTable t = TestTable.of("sales", "region", VARCHAR, "qty", INT, "price", dec(15, 2), "rate", DOUBLE, "day", DATE, "ok", BOOL)
                .batch(row("east", 1, bd("10.00"), 0.5, date("1995-01-02"), true),
                        row("west", 2, bd("20.50"), 1.5, date("1995-01-01"), false))
                .batch()
                .batch(row(null, 3, bd("1.25"), null, null, null),
                        row("east", null, bd("10.00"), 2.0, date("1996-01-01"), false),
                        row("west", 2, null, 1.0, date("1994-06-30"), true),
                        row(null, 5, bd("0.01"), 3.0, date("1995-05-05"), true));
        return nonUnique ? t.nonUniqueDictionaries() : t;
    }

    private static AggCall agg(AggFunction f, int arg, DataType type) {
        return new AggCall(f, arg < 0 ? List.of() : List.of(arg), false, type, f.name().toLowerCase());
    }

    private static AggCall distinct(AggFunction f, int arg, DataType type) {
        return new AggCall(f, List.of(arg), true, type, f.name().toLowerCase() + "_distinct");
    }

    private static AggregateNode aggregate(PlanNode input, List<Integer> keys, AggCall... calls) {
        List<Field> fields = new ArrayList<>();
        keys.forEach(k -> fields.add(input.schema().field(k)));
        for (AggCall c : calls) {
            fields.add(new Field(c.name(), c.type()));
        }
        return new AggregateNode(input, keys, List.of(calls), new Schema(fields));
    }

    /** Sorted by the first column, NULLs first, for stable expectations. */
    private List<List<Object>> runSorted(PlanNode plan) {
        return run(new SortNode(plan, List.of(new SortKey(0, false, true)), 0, -1));
    }

    @Test
    void ungroupedAggregatesOfEveryFunction() {
        for (boolean nonUnique : new boolean[] {false, true}) {
            AggregateNode node = aggregate(scan(sales(nonUnique)), List.of(),
                    agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.COUNT, 1, BIGINT), agg(AggFunction.SUM, 1, BIGINT),
                    agg(AggFunction.SUM, 2, dec(18, 2)), agg(AggFunction.AVG, 2, DOUBLE), agg(AggFunction.AVG, 2, dec(18, 3)),
                    agg(AggFunction.AVG, 1, BIGINT), agg(AggFunction.SUM, 3, DOUBLE), agg(AggFunction.AVG, 3, DOUBLE),
                    agg(AggFunction.MIN, 0, VARCHAR), agg(AggFunction.MAX, 0, VARCHAR), agg(AggFunction.MIN, 4, DATE),
                    agg(AggFunction.MAX, 2, dec(15, 2)), agg(AggFunction.MIN, 5, BOOL), agg(AggFunction.MAX, 5, BOOL),
                    agg(AggFunction.MIN, 3, DOUBLE));
            // price: 10.00 + 20.50 + 1.25 + 10.00 + 0.01 = 41.76 over 5 rows; qty 1+2+3+2+5 = 13 over 5 rows.
            assertEquals(List.of(row(6L, 5L, 13L, bd("41.76"), 8.352, bd("8.352"), 2L, 8.0, 1.6,
                    "east", "west", date("1994-06-30"), bd("20.50"), false, true, 0.5)), run(node));
        }
    }

    @Test
    void aggregatesOverEmptyInputGiveOneRowWithoutGroupsAndNoneWithGroups() {
        TestTable empty = TestTable.of("e", "k", INT, "v", dec(10, 2)).batch().batch();
        AggCall[] calls = {agg(AggFunction.COUNT_STAR, -1, BIGINT), agg(AggFunction.COUNT, 1, BIGINT), agg(AggFunction.SUM, 1, dec(18, 2)),
            agg(AggFunction.AVG, 1, DOUBLE), agg(AggFunction.MIN, 1, dec(10, 2)), distinct(AggFunction.COUNT, 1, BIGINT)};
        assertEquals(List.of(row(0L, 0L, null, null, null, 0L)), run(aggregate(scan(empty), List.of(), calls)));
        assertEquals(List.of(), run(aggregate(scan(empty), List.of(0), calls)));
    }

    @Test
    void groupsByStringsTreatingNullAsOneGroup() {
        for (boolean nonUnique : new boolean[] {false, true}) {
            AggregateNode node = aggregate(scan(sales(nonUnique)), List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT),
                    agg(AggFunction.SUM, 2, dec(18, 2)), agg(AggFunction.MAX, 4, DATE), agg(AggFunction.COUNT, 1, BIGINT));
            assertEquals(List.of(row(null, 2L, bd("1.26"), date("1995-05-05"), 2L),
                    row("east", 2L, bd("20.00"), date("1996-01-01"), 1L),
                    row("west", 2L, bd("20.50"), date("1995-01-01"), 2L)), runSorted(node));
        }
    }

    @Test
    void groupsBySeveralKeysOfDifferentTypes() {
        AggregateNode node = aggregate(scan(sales(false)), List.of(5, 1), agg(AggFunction.COUNT_STAR, -1, BIGINT),
                agg(AggFunction.SUM, 3, DOUBLE));
        assertEquals(List.of(row(null, 3, 1L, null), row(false, 2, 1L, 1.5), row(false, null, 1L, 2.0), row(true, 1, 1L, 0.5),
                row(true, 2, 1L, 1.0), row(true, 5, 1L, 3.0)),
                run(new SortNode(node, List.of(new SortKey(0, false, true), new SortKey(1, false, false)), 0, -1)));
    }

    @Test
    void groupKeysOfDoubleFoldNegativeZero() {
        TestTable t = TestTable.of("t", "x", DOUBLE).batch(row(0.0), row(-0.0), row(1.5), row((Object) null)).batch(row(1.5));
        assertEquals(List.of(row(null, 1L), row(0.0, 2L), row(1.5, 2L)),
                runSorted(aggregate(scan(t), List.of(0), agg(AggFunction.COUNT_STAR, -1, BIGINT))));
    }

    @Test
    void distinctAggregates() {
        TestTable t = TestTable.of("t", "g", INT, "v", dec(10, 2), "s", VARCHAR)
                .batch(row(1, bd("1.00"), "a"), row(1, bd("1.00"), "a"), row(1, bd("2.50"), "b"))
                .batch(row(1, null, null), row(2, bd("1.00"), "a"), row(1, bd("2.50"), "A"))
                .batch(row(2, bd("1.00"), "a"))
                .nonUniqueDictionaries();
        AggregateNode node = aggregate(scan(t), List.of(0), distinct(AggFunction.COUNT, 1, BIGINT),
                distinct(AggFunction.SUM, 1, dec(18, 2)), distinct(AggFunction.AVG, 1, dec(18, 2)), distinct(AggFunction.COUNT, 2, BIGINT),
                agg(AggFunction.COUNT, 2, BIGINT), distinct(AggFunction.MAX, 2, VARCHAR));
        assertEquals(List.of(row(1, 2L, bd("3.50"), bd("1.75"), 3L, 4L, "b"), row(2, 1L, bd("1.00"), bd("1.00"), 1L, 2L, "a")),
                runSorted(node));
    }

    @Test
    void exactSumsUse128BitsAndFailOnlyWhenTheResultDoesNotFit() {
        long big = Long.MAX_VALUE - 10;
        TestTable t = TestTable.of("t", "g", INT, "v", BIGINT)
                .batch(row(1, big), row(1, big), row(1, -big), row(2, big), row(2, big));
        // Group 1's running sum passes 2^63 and comes back: exact result.
        AggregateNode sum = aggregate(scan(t), List.of(0), agg(AggFunction.SUM, 1, BIGINT));
        runFailing(sum, SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
        TestTable ok = TestTable.of("t", "v", BIGINT).batch(row(big), row(big), row(-big), row(-5L));
        assertEquals(List.of(row(big - 5, (double) (big - 5) / 4, (big - 5) / 4)),
                run(aggregate(scan(ok), List.of(), agg(AggFunction.SUM, 0, BIGINT), agg(AggFunction.AVG, 0, DOUBLE),
                        agg(AggFunction.AVG, 0, BIGINT))));
        // AVG of a sum beyond 64 bits is exact too: (3 * big) / 3; at scale 1 it no longer fits.
        TestTable three = TestTable.of("t", "v", BIGINT).batch(row(big), row(big), row(big));
        assertEquals(List.of(row(big, (double) big)),
                run(aggregate(scan(three), List.of(), agg(AggFunction.AVG, 0, BIGINT), agg(AggFunction.AVG, 0, DOUBLE))));
        runFailing(aggregate(scan(three), List.of(), agg(AggFunction.AVG, 0, dec(18, 1))), SqlState.NUMERIC_VALUE_OUT_OF_RANGE);
    }

    @Test
    void decimalAverageRoundsHalfUp() {
        TestTable t = TestTable.of("t", "v", dec(10, 2)).batch(row(bd("0.01")), row(bd("0.02"))).batch(row(bd("-0.10")));
        // (0.01 + 0.02) / 2 = 0.015 -> 0.02; all three: -0.07 / 3 = -0.02333 -> -0.02
        AggregateNode two = aggregate(scan(TestTable.of("t", "v", dec(10, 2)).batch(row(bd("0.01")), row(bd("0.02")))), List.of(),
                agg(AggFunction.AVG, 0, dec(10, 2)));
        assertEquals(List.of(row(bd("0.02"))), run(two));
        assertEquals(List.of(row(bd("-0.02"), bd("-0.0233"))),
                run(aggregate(scan(t), List.of(), agg(AggFunction.AVG, 0, dec(10, 2)), agg(AggFunction.AVG, 0, dec(10, 4)))));
    }

    @Test
    void manyGroupsAreEmittedInSeveralBatches() {
        List<List<Object>> rows = new ArrayList<>();
        IntStream.range(0, 200_000).forEach(i -> rows.add(row((long) (i % 100_000), i)));
        TestTable t = TestTable.of("t", "k", BIGINT, "v", INT).batches(rows, 100_000, 0, 100_000);
        List<List<Object>> out = run(aggregate(scan(t), List.of(0), agg(AggFunction.SUM, 1, BIGINT)));
        assertEquals(100_000, out.size());
        // One thread emits 65,536 + 34,464; several emit each hash partition of the merge in turn.
        assertTrue(batchSizes.size() >= 2 && batchSizes.stream().allMatch(n -> n <= 65_536), batchSizes.toString());
        assertEquals(100_000, batchSizes.stream().mapToInt(Integer::intValue).sum());
        assertTrue(out.contains(row(0L, 100_000L)));
        assertTrue(out.contains(row(99_999L, 99_999L + 199_999L)));
    }
}
