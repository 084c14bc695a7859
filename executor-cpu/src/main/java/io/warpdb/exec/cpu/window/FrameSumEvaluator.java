package io.warpdb.exec.cpu.window;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * COUNT(*), COUNT, SUM, SUM0 and AVG over each row's frame. Exact types (INTEGER, BIGINT, DECIMAL)
 * keep 128-bit prefix sums over all positions (and prefix counts of non-NULL values), so any
 * frame's sum is one subtraction and exact, finished by core's {@link ExactSums} and
 * {@link ExactQuotients} as the grouped aggregates are. A wide DECIMAL argument keeps two, of its
 * values' lower words (unsigned) and of their upper words (signed), which no row count overflows;
 * a frame's sum is upper * 2^64 + lower ({@link Int128#setWordSums}), 22003 beyond 128 bits.
 * DOUBLE sums never subtract: a running sum (or prefix) that has held a huge value loses the small
 * ones for good, so a frame after it would come out as rounding noise (and an infinity that left
 * the frame as NaN). Instead each partition gets a segment tree of compensated (double-double)
 * sums, and a frame adds its O(log n) nodes.
 */
final class FrameSumEvaluator extends WindowEvaluator {
    private final WindowFunction function;
    private final DataType type;
    private final Column values;
    private final int inputScale;
    /** Non-NULL values among positions [0, p). */
    private final long[] counts;
    /** Exact types: the 128-bit sum of positions [0, p) as a high and a low long (a wide argument's: of its lower words). */
    private final long[] high;
    private final long[] low;
    /** A wide argument: the 128-bit sum of its upper words over positions [0, p); null for other arguments. */
    private final long[] upperHigh;
    private final long[] upperLow;
    /**
     * DOUBLE sums: the segment tree of the partition at [from, to) keeps node k (1 to 2(to - from) - 1,
     * leaves from to - from on) at 2 * from + k, so that partitions evaluated at once write apart;
     * a node's sum is treeHigh + treeLow, treeLow the rounding error of treeHigh.
     */
    private final double[] treeHigh;
    private final double[] treeLow;
    private final long[] longs;
    /** A wide DECIMAL SUM's upper words (its lower ones in {@link #longs}); null for other results. */
    private final long[] highs;
    private final double[] doubles;
    private final boolean[] nulls;

    FrameSumEvaluator(WindowCall call, WindowEvaluator.Arguments args, int rows) {
        this.function = call.function();
        this.type = call.type();
        this.values = function == WindowFunction.COUNT_STAR ? null : args.read(0, null);
        boolean exact = isSum() && values.type().kind() != TypeKind.DOUBLE;
        if (exact && !values.type().kind().isExactNumeric()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, function + " does not apply to " + values.type().sqlName());
        }
        boolean wide = exact && values.type().isWideDecimal();
        this.inputScale = values == null ? 0 : Decimals.scaleOf(values.type());
        this.counts = new long[rows + 1];
        this.high = exact ? new long[rows + 1] : null;
        this.low = exact ? new long[rows + 1] : null;
        this.upperHigh = wide ? new long[rows + 1] : null;
        this.upperLow = wide ? new long[rows + 1] : null;
        for (int p = 0; p < rows; p++) {
            boolean counted = values == null || !values.isNull(p);
            counts[p + 1] = counts[p] + (counted ? 1 : 0);
            if (exact) {
                long v = counted ? values.longs()[p] : 0;
                // A wide value's lower word is unsigned: its sign is in its upper word.
                accumulate(high, low, p, v, wide ? 0 : v >> 63);
            }
            if (wide) {
                long u = counted ? values.highs()[p] : 0;
                accumulate(upperHigh, upperLow, p, u, u >> 63);
            }
        }
        boolean treeSums = isSum() && !exact;
        this.treeHigh = treeSums ? new double[2 * rows] : null;
        this.treeLow = treeSums ? new double[2 * rows] : null;
        boolean isDouble = type.kind() == TypeKind.DOUBLE;
        this.longs = isDouble ? null : new long[rows];
        this.highs = type.isWideDecimal() ? new long[rows] : null;
        this.doubles = isDouble ? new double[rows] : null;
        this.nulls = new boolean[rows];
    }

    /** Prefix p + 1 := prefix p + (extension, v) in 128 bits: the carry out of the unsigned low half, plus v's upper word. */
    private static void accumulate(long[] high, long[] low, int p, long v, long extension) {
        low[p + 1] = low[p] + v;
        high[p + 1] = high[p] + extension + (Long.compareUnsigned(low[p + 1], low[p]) < 0 ? 1 : 0);
    }

    private boolean isSum() {
        return function == WindowFunction.SUM || function == WindowFunction.SUM0 || function == WindowFunction.AVG;
    }

    @Override
    public void evaluate(int from, int to, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd) {
        if (treeHigh != null) {
            sumDoubles(from, to, frameStart, frameEnd);
            return;
        }
        Int128 sum = new Int128();
        Int128 upper = new Int128();
        for (int i = from; i < to; i++) {
            int s = frameStart[i];
            int e = frameEnd[i];
            long count = counts[e] - counts[s];
            if (!isSum()) {
                longs[i] = Decimals.checkFits(count, type);
            } else if (count == 0) {
                nulls[i] = function != WindowFunction.SUM0;
            } else {
                sum.set(high[e], low[e]).subtract(high[s], low[s]);
                if (upperHigh != null) {
                    upper.set(upperHigh[e], upperLow[e]).subtract(upperHigh[s], upperLow[s]);
                    sum.setWordSums(upper.high, upper.low, sum.high, sum.low);
                }
                long hi = sum.high;
                long lo = sum.low;
                boolean average = function == WindowFunction.AVG;
                if (doubles != null) {
                    doubles[i] = ExactQuotients.toDouble(hi, lo, inputScale, average ? count : 1);
                } else if (highs != null) {
                    ExactSums.wideValue(hi, lo, inputScale, type, sum);
                    longs[i] = sum.low;
                    highs[i] = sum.high;
                } else {
                    longs[i] = ExactSums.value(hi, lo, inputScale, count, average, type);
                }
            }
        }
    }

    /** DOUBLE sums: each frame's sum from the partition's tree, whatever the frame's shape. */
    private void sumDoubles(int from, int to, int[] frameStart, int[] frameEnd) {
        int leaves = to - from;
        int base = 2 * from;
        double[] v = values.doubles();
        for (int k = 0; k < leaves; k++) {
            treeHigh[base + leaves + k] = values.isNull(from + k) ? 0 : v[from + k];
            treeLow[base + leaves + k] = 0;
        }
        double[] sum = new double[2];
        for (int k = leaves - 1; k >= 1; k--) {
            sum[0] = treeHigh[base + 2 * k];
            sum[1] = treeLow[base + 2 * k];
            addNode(sum, base + 2 * k + 1);
            treeHigh[base + k] = sum[0];
            treeLow[base + k] = sum[1];
        }
        for (int i = from; i < to; i++) {
            sum[0] = 0;
            sum[1] = 0;
            // Bottom-up walk over [frameStart, frameEnd): each level adds at most one node per side.
            for (int l = frameStart[i] - from + leaves, r = frameEnd[i] - from + leaves; l < r; l >>= 1, r >>= 1) {
                if ((l & 1) != 0) {
                    addNode(sum, base + l++);
                }
                if ((r & 1) != 0) {
                    addNode(sum, base + --r);
                }
            }
            long count = counts[frameEnd[i]] - counts[frameStart[i]];
            nulls[i] = count == 0 && function != WindowFunction.SUM0;
            doubles[i] = count == 0 ? 0 : function == WindowFunction.AVG ? sum[0] / count : sum[0];
        }
    }

    /**
     * Adds tree node {@code node} to the double-double {@code sum} ({high, low}, normalized so that
     * high is the sum rounded): Knuth's two-sum of the highs, plus both lows.
     */
    private void addNode(double[] sum, int node) {
        double a = sum[0];
        double b = treeHigh[node];
        double high = a + b;
        if (!Double.isFinite(high)) {
            // An infinity or NaN has no rounding error worth carrying (it would only turn into NaN).
            sum[0] = high;
            sum[1] = 0;
            return;
        }
        double bPart = high - a;
        double error = (a - (high - bPart)) + (b - bPart) + sum[1] + treeLow[node];
        sum[0] = high + error;
        sum[1] = error - (sum[0] - high);
    }

    @Override
    public Column result() {
        if (doubles != null) {
            return Column.ofDoubles(type, doubles, nulls);
        }
        return highs != null ? Column.ofWide(type, longs, highs, nulls) : Column.ofLongs(type, longs, nulls);
    }
}
