package io.warpdb.exec.cpu.operator;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Whether the rows of a parallel aggregation came clustered by its one group key, as TPC-H's
 * lineitem by l_orderkey: each batch sorted by the encoded key with no NULL, and the key ranges
 * [first, last] of all workers' batches overlapping at most at their ends. Then a key strictly
 * inside a batch's range has all its rows in that batch, hence in one worker's groups, and only
 * the keys that begin or end a batch can be in several: the partial aggregations merge by those
 * alone. One per worker, fed each batch's keys.
 */
final class ClusteredKeys {
    private boolean sorted = true;
    private long[] firsts = new long[16];
    private long[] lasts = new long[16];
    private int batches;

    /** Notes one batch's encoded keys {@code keys[0 .. rows)} and their NULL flags (null: none). */
    void add(long[] keys, boolean[] nulls, int rows) {
        if (!sorted || rows == 0) {
            return;
        }
        for (int row = 0; row < rows; row++) {
            if (nulls != null && nulls[row] || row > 0 && keys[row] < keys[row - 1]) {
                sorted = false;
                return;
            }
        }
        if (batches == firsts.length) {
            firsts = Arrays.copyOf(firsts, batches * 2);
            lasts = Arrays.copyOf(lasts, batches * 2);
        }
        firsts[batches] = keys[0];
        lasts[batches++] = keys[rows - 1];
    }

    /** Whether the batches of all {@code workers} were sorted and their ranges overlap at most at their ends. */
    static boolean apart(List<ClusteredKeys> workers) {
        int total = 0;
        for (ClusteredKeys w : workers) {
            if (!w.sorted) {
                return false;
            }
            total += w.batches;
        }
        long[][] ranges = new long[total][];
        int r = 0;
        for (ClusteredKeys w : workers) {
            for (int b = 0; b < w.batches; b++) {
                ranges[r++] = new long[] {w.firsts[b], w.lasts[b]};
            }
        }
        Arrays.sort(ranges, Comparator.<long[]>comparingLong(range -> range[0]).thenComparingLong(range -> range[1]));
        for (int i = 1; i < total; i++) {
            if (ranges[i - 1][1] > ranges[i][0]) {
                return false;
            }
        }
        return true;
    }

    /** The distinct keys that begin or end a batch of any of {@code workers}, ascending. */
    static long[] boundaries(List<ClusteredKeys> workers) {
        long[] all = new long[0];
        for (ClusteredKeys w : workers) {
            int at = all.length;
            all = Arrays.copyOf(all, at + 2 * w.batches);
            System.arraycopy(w.firsts, 0, all, at, w.batches);
            System.arraycopy(w.lasts, 0, all, at + w.batches, w.batches);
        }
        return Arrays.stream(all).sorted().distinct().toArray();
    }
}
