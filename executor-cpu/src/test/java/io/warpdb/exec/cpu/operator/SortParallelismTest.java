package io.warpdb.exec.cpu.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.cpu.ExecTestBase;
import io.warpdb.exec.cpu.TestTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ORDER BY and top-N give exactly the same rows, ties in the same (input) order, on 1, 2, 3 and 8
 * workers, and the order the keys ask for; from empty inputs to ones of many batches.
 */
class SortParallelismTest extends ExecTestBase {
    private static final int[] PARALLELISM = {1, 2, 3, 8};

    /** (id, k, s, d): k few distinct INTs, s few distinct strings, d DOUBLEs; all keys with NULLs and many duplicates. */
    private static TestTable table(int rows, int batchRows) {
        List<List<Object>> data = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            data.add(row(i, i % 11 == 0 ? null : (i * 7919) % 97, i % 7 == 0 ? null : "s" + (i * 31) % 13,
                    i % 13 == 0 ? null : ((i * 13) % 50) / 4.0 - 5));
        }
        List<Integer> sizes = new ArrayList<>();
        for (int at = 0; at < rows; at += batchRows) {
            sizes.add(Math.min(batchRows, rows - at));
            if (sizes.size() == 2) {
                sizes.add(0); // an empty batch between
            }
        }
        return TestTable.of("t", "id", INT, "k", INT, "s", VARCHAR, "d", DOUBLE)
                .batches(data, sizes.stream().mapToInt(Integer::intValue).toArray()).nonUniqueDictionaries();
    }

    private static final List<List<SortKey>> ORDERS = List.of(
            List.of(new SortKey(1, false, false)), // k ASC NULLS LAST
            List.of(new SortKey(1, true, true), new SortKey(2, false, false)), // k DESC NULLS FIRST, s ASC NULLS LAST
            List.of(new SortKey(2, true, false), new SortKey(3, false, true)), // s DESC NULLS LAST, d ASC NULLS FIRST
            List.of(new SortKey(3, true, true))); // d DESC NULLS FIRST

    /** The expected order: a stable sort of the input rows by the keys. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<List<Object>> comparator(List<SortKey> keys) {
        Comparator<List<Object>> order = (a, b) -> 0;
        for (SortKey key : keys) {
            Comparator<Comparable> values = key.descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
            Comparator<Comparable> withNulls = key.nullsFirst() ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
            order = order.thenComparing(r -> (Comparable) r.get(key.column()), withNulls);
        }
        return order;
    }

    private ExecContext context(int parallelism) {
        ExecContext context = new ExecContext(allocator);
        context.setParallelism(parallelism);
        return context;
    }

    /** Every order and offset/limit on every parallelism gives the rows of a stable sort of the input. */
    private void sameOnEveryParallelism(int rows, int batchRows, long[][] offsetLimits) {
        TestTable t = table(rows, batchRows);
        List<List<Object>> input = run(scan(t));
        for (List<SortKey> keys : ORDERS) {
            List<List<Object>> all = new ArrayList<>(input);
            all.sort(comparator(keys));
            for (long[] offsetLimit : offsetLimits) {
                long offset = offsetLimit[0];
                long limit = offsetLimit[1];
                int from = (int) Math.min(offset, rows);
                int to = limit < 0 ? rows : (int) Math.min(rows, offset + limit);
                List<List<Object>> expected = all.subList(from, Math.max(from, to));
                SortNode sort = new SortNode(scan(t), keys, offset, limit);
                for (int parallelism : PARALLELISM) {
                    assertEquals(expected, run(sort, context(parallelism)),
                            rows + " rows, " + keys + " offset " + offset + " limit " + limit + " on " + parallelism);
                }
            }
        }
    }

    @Test
    void smallInputs() {
        for (int rows : new int[] {0, 1, 31, 32, 33}) {
            sameOnEveryParallelism(rows, 10, new long[][] {
                {0, -1}, {0, 0}, {0, 1}, {0, 10}, {5, 10}, {3, -1}, {0, rows + 100L}, {rows + 1L, -1}, {rows, 5}});
        }
    }

    @Test
    void manyBatches() {
        int rows = 200_000;
        sameOnEveryParallelism(rows, 30_000, new long[][] {
            {0, -1}, {0, 0}, {0, 10}, {12_345, 1000}, {0, 70_000}, {150_000, 100_000}, {0, rows + 5L}});
    }
}
