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
import io.warpdb.exec.cpu.column.Column;

/**
 * COUNT(*), COUNT, SUM, SUM0 and AVG over each row's frame. Exact types (INTEGER, BIGINT, DECIMAL)
 * keep 128-bit prefix sums over all positions (and prefix counts of non-NULL values), so any
 * frame's sum is one subtraction and exact, finished by core's {@link ExactSums} and
 * {@link ExactQuotients} as the grouped aggregates are. DOUBLE sums slide: a frame's sum adds
 * the values entering it and subtracts those leaving it, in row order (a frame that starts at the
 * partition's start only adds).
 */
final class FrameSumEvaluator extends WindowEvaluator {
    private final WindowCall call;
    private final WindowFunction function;
    private final DataType type;
    private final Column values;
    private final int inputScale;
    /** Non-NULL values among positions [0, p). */
    private final long[] counts;
    /** Exact types: the 128-bit sum of positions [0, p) as a high and a low long. */
    private final long[] high;
    private final long[] low;
    private final long[] longs;
    private final double[] doubles;
    private final boolean[] nulls;

    FrameSumEvaluator(WindowCall call, WindowEvaluator.Arguments args, int rows) {
        this.call = call;
        this.function = call.function();
        this.type = call.type();
        this.values = function == WindowFunction.COUNT_STAR ? null : args.read(0, null);
        boolean exact = isSum() && values.type().kind() != TypeKind.DOUBLE;
        if (exact && !values.type().kind().isExactNumeric()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, function + " does not apply to " + values.type().sqlName());
        }
        if (exact && (values.type().isWideDecimal() || type.isWideDecimal())) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, function + " OVER a window of " + values.type().sqlName()
                    + " is not supported yet (DECIMAL of more than " + DataType.MAX_DECIMAL_PRECISION + " digits)");
        }
        this.inputScale = values == null ? 0 : Decimals.scaleOf(values.type());
        this.counts = new long[rows + 1];
        this.high = exact ? new long[rows + 1] : null;
        this.low = exact ? new long[rows + 1] : null;
        for (int p = 0; p < rows; p++) {
            boolean counted = values == null || !values.isNull(p);
            counts[p + 1] = counts[p] + (counted ? 1 : 0);
            if (exact) {
                long v = counted ? values.longs()[p] : 0;
                low[p + 1] = low[p] + v;
                // Carry out of the unsigned low half, plus the sign extension of v.
                high[p + 1] = high[p] + (v >> 63) + (Long.compareUnsigned(low[p + 1], low[p]) < 0 ? 1 : 0);
            }
        }
        boolean isDouble = type.kind() == TypeKind.DOUBLE;
        this.longs = isDouble ? null : new long[rows];
        this.doubles = isDouble ? new double[rows] : null;
        this.nulls = new boolean[rows];
    }

    private boolean isSum() {
        return function == WindowFunction.SUM || function == WindowFunction.SUM0 || function == WindowFunction.AVG;
    }

    @Override
    public void evaluate(int from, int to, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd) {
        if (isSum() && high == null) {
            slideDoubles(from, to, frameStart, frameEnd);
            return;
        }
        for (int i = from; i < to; i++) {
            int s = frameStart[i];
            int e = frameEnd[i];
            long count = counts[e] - counts[s];
            if (!isSum()) {
                longs[i] = Decimals.checkFits(count, type);
            } else if (count == 0) {
                nulls[i] = function != WindowFunction.SUM0;
            } else {
                long lo = low[e] - low[s];
                long hi = high[e] - high[s] - (Long.compareUnsigned(low[e], low[s]) < 0 ? 1 : 0);
                boolean average = function == WindowFunction.AVG;
                if (doubles != null) {
                    doubles[i] = ExactQuotients.toDouble(hi, lo, inputScale, average ? count : 1);
                } else {
                    longs[i] = ExactSums.value(hi, lo, inputScale, count, average, type);
                }
            }
        }
    }

    /** DOUBLE sums: frames only move forward, so each value enters and leaves the running sum once. */
    private void slideDoubles(int from, int to, int[] frameStart, int[] frameEnd) {
        double[] v = values.doubles();
        double sum = 0;
        int start = from;
        int end = from;
        for (int i = from; i < to; i++) {
            for (; end < frameEnd[i]; end++) {
                sum += values.isNull(end) ? 0 : v[end];
            }
            for (; start < frameStart[i]; start++) {
                sum -= values.isNull(start) ? 0 : v[start];
            }
            if (start == end) {
                // An empty frame: start afresh, so that no rounding left by earlier frames carries over.
                sum = 0;
            }
            long count = counts[frameEnd[i]] - counts[frameStart[i]];
            nulls[i] = count == 0 && function != WindowFunction.SUM0;
            doubles[i] = count == 0 ? 0 : function == WindowFunction.AVG ? sum / count : sum;
        }
    }

    @Override
    public Column result() {
        if (doubles != null) {
            return Column.ofDoubles(type, doubles, nulls);
        }
        return Column.ofLongs(call.type(), longs, nulls);
    }
}
