package io.warpdb.exec.cpu.window;

import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.column.Column;

/**
 * ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST and NTILE: numbers from a row's place in
 * its partition and among its peers. NTILE(n) deals the rows out as the standard says: the first
 * {@code size % n} buckets get one row more than the others.
 */
final class RankingEvaluator extends WindowEvaluator {
    private final WindowCall call;
    private final WindowFunction function;
    private final long buckets;
    private final long[] longs;
    private final double[] doubles;

    RankingEvaluator(WindowCall call, int rows) {
        this.call = call;
        this.function = call.function();
        this.buckets = function == WindowFunction.NTILE ? call.constantArgument(0, -1, 1) : 0;
        boolean isDouble = call.type().kind() == TypeKind.DOUBLE;
        this.longs = isDouble ? null : new long[rows];
        this.doubles = isDouble ? new double[rows] : null;
    }

    @Override
    public void evaluate(int from, int to, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd) {
        long size = to - from;
        long denseRank = 0;
        for (int i = from; i < to; i++) {
            if (peerStart[i] == i) {
                denseRank++;
            }
            long rank = peerStart[i] - from + 1;
            switch (function) {
                case ROW_NUMBER -> longs[i] = i - from + 1;
                case RANK -> longs[i] = rank;
                case DENSE_RANK -> longs[i] = denseRank;
                case PERCENT_RANK -> doubles[i] = size == 1 ? 0 : (double) (rank - 1) / (size - 1);
                case CUME_DIST -> doubles[i] = (double) (peerEnd[i] - from) / size;
                case NTILE -> longs[i] = ntile(i - from, size);
                default -> throw new IllegalStateException(function + " is not a ranking function");
            }
        }
    }

    /** The 1-based bucket of the row {@code row} (0-based) of a partition of {@code size} rows. */
    private long ntile(long row, long size) {
        long small = size / buckets;
        long large = small + 1;
        long largeBuckets = size % buckets;
        long inLarge = largeBuckets * large;
        return row < inLarge ? row / large + 1 : largeBuckets + (row - inLarge) / small + 1;
    }

    @Override
    public Column result() {
        return longs != null ? Column.ofLongs(call.type(), longs, null) : Column.ofDoubles(call.type(), doubles, null);
    }
}
