package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SortTest extends ExecTestBase {
    private final TestTable people = TestTable.of("p", "name", VARCHAR, "age", INT, "score", DOUBLE, "born", DATE, "paid", dec(10, 2))
            .batch(row("bob", 30, 1.5, date("1990-05-01"), bd("10.00")), row("amy", null, -2.0, date("1985-01-01"), bd("-3.50")))
            .batch()
            .batch(row(null, 25, null, null, bd("10.00")), row("Zed", 30, 0.0, date("2001-12-31"), null),
                    row("amy", 41, -0.5, date("1985-01-01"), bd("0.01")))
            .nonUniqueDictionaries();

    private List<List<Object>> names(PlanNode plan) {
        return run(project(plan, col(0, VARCHAR)));
    }

    private SortNode sort(long offset, long limit, SortKey... keys) {
        return new SortNode(scan(people), List.of(keys), offset, limit);
    }

    @Test
    void sortsByStringValueWithNullsWhereAsked() {
        assertEquals(List.of(row("Zed"), row("amy"), row("amy"), row("bob"), row((Object) null)),
                names(sort(0, -1, new SortKey(0, false, false))));
        assertEquals(List.of(row((Object) null), row("bob"), row("amy"), row("amy"), row("Zed")),
                names(sort(0, -1, new SortKey(0, true, true))));
    }

    @Test
    void sortsBySeveralKeysAndKeepsInputOrderForTies() {
        // age DESC NULLS FIRST, then name ASC: the two 30-year-olds tie on age.
        List<List<Object>> rows = run(project(sort(0, -1, new SortKey(1, true, true), new SortKey(0, false, true)),
                col(0, VARCHAR), col(1, INT)));
        assertEquals(List.of(row("amy", null), row("amy", 41), row("Zed", 30), row("bob", 30), row(null, 25)), rows);
        // paid ASC NULLS LAST only: bob and the unnamed tie at 10.00 and keep input order.
        assertEquals(List.of(row("amy"), row("amy"), row("bob"), row((Object) null), row("Zed")),
                names(sort(0, -1, new SortKey(4, false, false))));
    }

    @Test
    void sortsDoublesDatesAndDecimalsNumerically() {
        assertEquals(List.of(row("amy"), row("amy"), row("Zed"), row("bob"), row((Object) null)),
                names(sort(0, -1, new SortKey(2, false, false))));
        assertEquals(List.of(row("Zed"), row("bob"), row("amy"), row("amy"), row((Object) null)),
                names(sort(0, -1, new SortKey(3, true, false))));
    }

    @Test
    void offsetAndLimit() {
        SortKey byPaid = new SortKey(4, false, true);
        assertEquals(List.of(row("amy"), row("bob")), names(sort(2, 2, byPaid)));
        assertEquals(List.of(row((Object) null)), names(sort(4, 10, byPaid)));
        assertEquals(List.of(), names(sort(10, -1, byPaid)));
        assertEquals(List.of(), names(sort(0, 0, byPaid)));
    }

    @Test
    void limitWithoutKeysStreamsTheInput() {
        assertEquals(List.of(row("amy"), row((Object) null), row("Zed")), names(sort(1, 3)));
        assertEquals(List.of(row("bob"), row("amy"), row((Object) null), row("Zed"), row("amy")), names(sort(0, -1)));
        assertEquals(List.of(row("amy")), names(sort(4, -1)));
    }

    @Test
    void topNAndFullSortAgreeOnLargeRandomInput() {
        Random random = new Random(42);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 300_000; i++) {
            rows.add(row(random.nextInt(1000) == 0 ? null : (long) random.nextInt(50_000), i));
        }
        TestTable t = TestTable.of("t", "k", BIGINT, "i", INT).batches(rows, 100_000, 0, 150_000, 50_000);
        List<List<Object>> expected = new ArrayList<>(rows);
        // k DESC NULLS LAST, then i ASC: a total order, so the expectation is exact.
        expected.sort(Comparator.comparing((List<Object> r) -> (Long) r.get(0), Comparator.nullsFirst(Comparator.<Long>naturalOrder()))
                .reversed().thenComparing(r -> (Integer) r.get(1)));
        List<SortKey> keys = List.of(new SortKey(0, true, false), new SortKey(1, false, false));
        assertEquals(expected.subList(100, 110), run(new SortNode(scan(t), keys, 100, 10)));
        List<List<Object>> all = run(new SortNode(scan(t), keys, 0, -1));
        assertEquals(expected, all);
        assertEquals(List.of(65_536, 65_536, 65_536, 65_536, 37_856), batchSizes);
    }
}
