package io.warpdb.exec.cpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * A parallel aggregation merges each worker's partial into every hash partition at once, from
 * several threads: merging must only read the partial. (Folding the partial's pending sums in
 * place once counted them twice when two partitions merged it together: TPC-H Q3 and Q10 at
 * SF 10 on 16 threads gave revenues too large.)
 */
class MergeConcurrencyTest {
    private static final int GROUPS = 200_000;
    private static final int THREADS = 4;

    @Test
    void exactSumsMergedFromOnePartialByManyThreadsCountEachRowOnce() throws Exception {
        AggCall sum = new AggCall(AggFunction.SUM, List.of(0), false, DataType.BIGINT, "s");
        MergeableAccumulator partial = (MergeableAccumulator) Accumulators.create(sum, List.of(DataType.BIGINT));
        long[] values = new long[GROUPS];
        int[] ids = new int[GROUPS];
        for (int g = 0; g < GROUPS; g++) {
            values[g] = 3L * g - (1L << 40);
            ids[g] = g;
        }
        partial.add(Column.ofLongs(DataType.BIGINT, values, null), ids, GROUPS);
        long[] expected = values.clone();
        for (int round = 0; round < 5; round++) {
            // Each thread merges its share of the groups (its partition), all from the same partial.
            List<MergeableAccumulator> targets = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            for (int t = 0; t < THREADS; t++) {
                MergeableAccumulator target = (MergeableAccumulator) Accumulators.create(sum, List.of(DataType.BIGINT));
                targets.add(target);
                int[] partition = new int[GROUPS];
                for (int g = 0; g < GROUPS; g++) {
                    partition[g] = g % THREADS == t ? g / THREADS : -1;
                }
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    target.merge(partial, partition, (GROUPS + THREADS - 1) / THREADS);
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            long[] merged = new long[GROUPS];
            for (int t = 0; t < THREADS; t++) {
                int count = (GROUPS - t + THREADS - 1) / THREADS;
                long[] part = targets.get(t).result(0, count).longs();
                for (int i = 0; i < count; i++) {
                    merged[i * THREADS + t] = part[i];
                }
            }
            assertArrayEquals(expected, merged, "round " + round);
        }
    }
}
