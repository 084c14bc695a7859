package io.warpdb.exec.cpu.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * The split sort with one value per thread allowed, so that even tiny inputs run on several
 * workers: any thread count and limit gives the stable one-thread order's first values.
 */
class IntSorterTest {
    /** Runs the tasks on threads of their own, task 0 on the caller, as the executor's workers do. */
    private static void runAll(int count, IntConsumer task) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int index = i;
            Thread thread = new Thread(() -> task.accept(index));
            thread.start();
            threads.add(thread);
        }
        task.accept(0);
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void anyThreadCountAndLimitGivesTheStableOneThreadOrder() {
        Random random = new Random(7);
        for (int n : new int[] {0, 1, 2, 3, 31, 32, 33, 1000}) {
            // Values are row numbers; the key has many ties, so only a stable sort gives one order.
            int[] key = random.ints(n, 0, 5).toArray();
            IntSorter.IntComparator byKey = (a, b) -> Integer.compare(key[a], key[b]);
            List<Integer> stable = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                stable.add(i);
            }
            stable.sort((a, b) -> byKey.compare(a, b)); // List.sort is stable
            for (int threads : new int[] {1, 2, 3, 5, 8}) {
                for (int limit : new int[] {0, 1, 2, 7, n - 1, n, n + 5}) {
                    if (limit < 0) {
                        continue;
                    }
                    int[] rows = new int[n];
                    for (int i = 0; i < n; i++) {
                        rows[i] = i;
                    }
                    int[] expected = stable.subList(0, Math.min(limit, n)).stream().mapToInt(Integer::intValue).toArray();
                    int[] actual = IntSorter.sortFirst(rows, limit, byKey, threads, IntSorterTest::runAll, 1);
                    assertArrayEquals(expected, actual, n + " values, " + threads + " threads, limit " + limit);
                }
            }
        }
    }
}
