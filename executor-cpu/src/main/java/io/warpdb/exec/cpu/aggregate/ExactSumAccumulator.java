package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.exec.cpu.column.Column;

/**
 * SUM and AVG of INTEGER, BIGINT or DECIMAL, accumulated exactly in 128 bits per group (a high
 * and a low long with carry), so no intermediate sum can overflow. The final value is core's
 * {@link ExactSums} (DOUBLE results {@link ExactQuotients}), which the GPU executor finishes its
 * sums with too ({@link SumResults}); a SUM typed as a wide DECIMAL is the 128-bit sum itself.
 */
final class ExactSumAccumulator implements MergeableAccumulator {
    private final boolean average;
    private final int inputScale;
    private final DataType type;
    /** Folded sums: 128 bits per group as a high and a low long. */
    private long[] high = new long[0];
    private long[] low = new long[0];
    /**
     * Sums not folded yet, of each value's upper 32 bits (signed) and of its lower 32 bits
     * (unsigned): two plain additions per row, no carry to track, and neither can overflow
     * before {@link #FOLD_ROWS} rows.
     */
    private long[] upper = new long[0];
    private long[] lower = new long[0];
    private long[] counts = new long[0];
    private long rowsSinceFold;

    /** Rows added between folds: below 2^31, so that neither 32-bit half's sum overflows 63 bits. */
    private static final long FOLD_ROWS = 1L << 30;

    ExactSumAccumulator(boolean average, int inputScale, DataType type) {
        this.average = average;
        this.inputScale = inputScale;
        this.type = type;
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        grow(groupCount);
        if (rowsSinceFold + groupIds.length > FOLD_ROWS) {
            fold();
        }
        rowsSinceFold += groupIds.length;
        long[] v = values.longs();
        boolean[] nulls = values.nulls();
        if (groupCount == 1) {
            // One group (an aggregate without GROUP BY): sums in registers.
            long up = 0;
            long lo = 0;
            long n = 0;
            for (int row = 0; row < groupIds.length; row++) {
                if (nulls == null || !nulls[row]) {
                    up += v[row] >> 32;
                    lo += v[row] & 0xffffffffL;
                    n++;
                }
            }
            upper[0] += up;
            lower[0] += lo;
            counts[0] += n;
            return;
        }
        long[] up = upper;
        long[] lo = lower;
        long[] n = counts;
        for (int row = 0; row < groupIds.length; row++) {
            if (nulls == null || !nulls[row]) {
                int g = groupIds[row];
                up[g] += v[row] >> 32;
                lo[g] += v[row] & 0xffffffffL;
                n[g]++;
            }
        }
    }

    /** Adds the unfolded sums into the 128-bit ones. */
    private void fold() {
        if (rowsSinceFold == 0) {
            return;
        }
        for (int g = 0; g < upper.length; g++) {
            addPending(g, upper[g], lower[g]);
            upper[g] = 0;
            lower[g] = 0;
        }
        rowsSinceFold = 0;
    }

    /** Adds sums of upper and lower 32-bit halves (see {@link #upper}) to group g's folded sum. */
    private void addPending(int g, long upperSum, long lowerSum) {
        addTo(g, upperSum >> 32, upperSum << 32);
        addTo(g, 0, lowerSum);
    }

    /** Adds the 128-bit value (hi, lo) to group g's folded sum. */
    private void addTo(int g, long hi, long lo) {
        long before = low[g];
        low[g] = before + lo;
        high[g] += hi + (Long.compareUnsigned(low[g], before) < 0 ? 1 : 0);
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        grow(groupCount);
        // Several workers may merge from one partial at once (one hash partition each): read it, never fold it.
        ExactSumAccumulator other = (ExactSumAccumulator) partial;
        for (int g = 0; g < Math.min(groupIds.length, other.counts.length); g++) {
            int to = groupIds[g];
            if (to >= 0) {
                addTo(to, other.high[g], other.low[g]);
                addPending(to, other.upper[g], other.lower[g]);
                counts[to] += other.counts[g];
            }
        }
    }

    private void grow(int groups) {
        high = Accumulators.grow(high, groups);
        low = Accumulators.grow(low, groups);
        upper = Accumulators.grow(upper, groups);
        lower = Accumulators.grow(lower, groups);
        counts = Accumulators.grow(counts, groups);
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Column result(int from, int count) {
        grow(from + count);
        fold();
        return SumResults.column(type, high, low, counts, from, count, inputScale, average);
    }
}
