package io.warpdb.exec.cpu.window;

import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowFrame.Bound;
import io.warpdb.core.plan.WindowFrame.BoundKind;

/**
 * Where each row's frame starts and ends, as sorted positions within its partition. Frames of
 * later rows never start or end earlier (what the sliding evaluators rely on); a frame whose
 * end would lie before its start is empty at its start.
 */
public final class FrameBounds {
    /**
     * The single order key of a RANGE frame with offsets, by sorted position: values negated for a
     * descending key, so that they ascend within a partition's non-NULL rows either way.
     */
    public record RangeKey(long[] ascending, boolean[] nulls) {
        boolean isNull(int position) {
            return nulls != null && nulls[position];
        }
    }

    private FrameBounds() {
    }

    /**
     * Fills {@code start[i]} and {@code end[i]} (exclusive) for the positions i of the partition
     * [from, to); {@code rangeKey} is needed only for a RANGE frame with offsets.
     */
    public static void compute(WindowFrame frame, int from, int to, int[] peerStart, int[] peerEnd, RangeKey rangeKey,
            int[] start, int[] end) {
        // The partition's non-NULL keys lie in one run, as NULLs sort first or last.
        int keysFrom = from;
        int keysTo = to;
        if (rangeKey != null) {
            while (keysFrom < to && rangeKey.isNull(keysFrom)) {
                keysFrom++;
            }
            while (keysTo > keysFrom && rangeKey.isNull(keysTo - 1)) {
                keysTo--;
            }
        }
        for (int i = from; i < to; i++) {
            int s;
            int e;
            if (frame.rows()) {
                s = rowsBound(frame.lower(), i, from, to, 0);
                e = rowsBound(frame.upper(), i, from, to, 1);
            } else if (rangeKey != null && !rangeKey.isNull(i)) {
                s = rangeBound(frame.lower(), i, from, to, peerStart, peerEnd, rangeKey, keysFrom, keysTo, false);
                e = rangeBound(frame.upper(), i, from, to, peerStart, peerEnd, rangeKey, keysFrom, keysTo, true);
            } else {
                // Without offsets (or for a NULL key, no distance from anything but NULL) CURRENT ROW and offsets mean the peers.
                s = peerBound(frame.lower(), i, from, to, peerStart, peerEnd, false);
                e = peerBound(frame.upper(), i, from, to, peerStart, peerEnd, true);
            }
            start[i] = s;
            end[i] = Math.max(s, e);
        }
    }

    /** A ROWS bound of row i; {@code past} is 1 for the frame's end (exclusive), 0 for its start. */
    private static int rowsBound(Bound bound, int i, int from, int to, int past) {
        long position = switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> from;
            case PRECEDING -> (long) i - bound.offset() + past;
            case CURRENT_ROW -> i + past;
            case FOLLOWING -> i + Math.min(bound.offset(), to) + past;
            case UNBOUNDED_FOLLOWING -> to;
        };
        return (int) Math.max(from, Math.min(to, position));
    }

    /** A RANGE bound that does not look at key values. */
    private static int peerBound(Bound bound, int i, int from, int to, int[] peerStart, int[] peerEnd, boolean end) {
        return switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> from;
            case UNBOUNDED_FOLLOWING -> to;
            default -> end ? peerEnd[i] : peerStart[i];
        };
    }

    /** A RANGE bound of row i, whose key is not NULL; for the frame's end, the first row past the bound. */
    private static int rangeBound(Bound bound, int i, int from, int to, int[] peerStart, int[] peerEnd, RangeKey key,
            int keysFrom, int keysTo, boolean end) {
        if (!bound.hasOffset()) {
            return peerBound(bound, i, from, to, peerStart, peerEnd, end);
        }
        long[] v = key.ascending();
        long target = saturatedAdd(v[i], bound.kind() == BoundKind.PRECEDING ? -bound.offset() : bound.offset());
        // The first non-NULL position whose key is at least (for the end: beyond) the target.
        int lo = keysFrom;
        int hi = keysTo;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (end ? v[mid] <= target : v[mid] < target) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
