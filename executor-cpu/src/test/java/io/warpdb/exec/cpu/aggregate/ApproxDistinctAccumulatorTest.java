package io.warpdb.exec.cpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

/** APPROX_COUNT_DISTINCT: exact on small inputs, within HyperLogLog's error bound on large ones, mergeable. */
class ApproxDistinctAccumulatorTest {
    private static final int BATCH = 65_536;

    private static MergeableAccumulator accumulator(DataType argType) {
        AggCall call = new AggCall(AggFunction.APPROX_COUNT_DISTINCT, List.of(0), false, DataType.BIGINT, "n");
        return (MergeableAccumulator) Accumulators.create(call, List.of(argType));
    }

    /** Adds the values [from, to) (each twice, in batches) to group 0. */
    private static void addRange(Accumulator acc, long from, long to) {
        for (long start = from; start < to; start += BATCH) {
            int n = (int) Math.min(BATCH, to - start);
            long[] values = new long[2 * n];
            for (int i = 0; i < n; i++) {
                values[2 * i] = start + i;
                values[2 * i + 1] = start + i;
            }
            acc.add(Column.ofLongs(DataType.BIGINT, values, null), new int[2 * n], 1);
        }
    }

    private static long estimate(Accumulator acc) {
        return acc.result(0, 1).longs()[0];
    }

    @Test
    void millionDistinctValuesAreEstimatedWithinTheErrorBound() {
        MergeableAccumulator acc = accumulator(DataType.BIGINT);
        addRange(acc, 0, 1_000_000);
        // Standard error 1.04 / sqrt(2^14) = 0.81%; 3% is almost four of them.
        double error = Math.abs(estimate(acc) - 1_000_000) / 1e6;
        assertTrue(error < 0.03, "estimate " + estimate(acc) + " is " + error * 100 + "% off");
    }

    @Test
    void smallInputsAreCountedExactly() {
        for (int n : new int[] {0, 1, 7, 1000, 1024}) {
            MergeableAccumulator acc = accumulator(DataType.BIGINT);
            addRange(acc, -n / 2, n - n / 2);
            assertEquals(n, estimate(acc), "distinct values " + n);
        }
    }

    @Test
    void justPastTheSparseLimitLinearCountingStaysClose() {
        MergeableAccumulator acc = accumulator(DataType.BIGINT);
        addRange(acc, 0, 5000);
        assertTrue(Math.abs(estimate(acc) - 5000) < 5000 * 0.03, "estimate " + estimate(acc));
    }

    @Test
    void workersSketchesMergeIntoTheSketchOfAllRows() {
        MergeableAccumulator whole = accumulator(DataType.BIGINT);
        MergeableAccumulator merged = accumulator(DataType.BIGINT);
        MergeableAccumulator sparse = accumulator(DataType.BIGINT);
        MergeableAccumulator dense = accumulator(DataType.BIGINT);
        addRange(whole, 0, 300_000);
        addRange(sparse, 0, 500);
        addRange(dense, 400, 300_000);
        // Sparse into empty, dense into sparse: the result is the sketch of the union.
        merged.merge(sparse, new int[] {0}, 1);
        merged.merge(dense, new int[] {0}, 1);
        assertEquals(estimate(whole), estimate(merged));
        assertEquals(500, estimate(sparse), "merging only reads the partial");
    }

    @Test
    void stringsCountByTextAcrossDictionaries() {
        MergeableAccumulator acc = accumulator(DataType.VARCHAR);
        StringDictionary first = StringDictionary.ofDistinct(List.of("a", "b"));
        StringDictionary second = StringDictionary.ofDistinct(List.of("c", "a"));
        acc.add(Column.ofCodes(DataType.VARCHAR, new long[] {0, 1, 1}, null, first), new int[3], 1);
        acc.add(Column.ofCodes(DataType.VARCHAR, new long[] {0, 1, 0}, new boolean[] {false, false, true}, second), new int[3], 1);
        assertEquals(3, estimate(acc));
    }
}
