package io.warpdb.exec.cpu.window;

import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.column.ColumnBuilder;
import io.warpdb.exec.cpu.sort.RowOrder;
import java.util.Arrays;

/**
 * The functions whose value is the argument's value at one row: LAG and LEAD (an offset away
 * within the partition, else the default), FIRST_VALUE, LAST_VALUE and NTH_VALUE (a place in the
 * frame, NULLs included), MIN and MAX (the least or greatest non-NULL value of the frame). Each
 * row first gets the position it takes its value from, then the values are gathered at once.
 * MIN and MAX slide over the frames with a monotonic deque (frames only move forward): O(1)
 * amortised per row whatever the frame.
 */
final class PickedValueEvaluator extends WindowEvaluator {
    /** Source position meaning NULL. */
    private static final int NULL = -1;
    /** Source position meaning LAG's or LEAD's default. */
    private static final int DEFAULT = -2;

    private final WindowCall call;
    private final WindowFunction function;
    private final Column values;
    private final Arguments args;
    /** LAG/LEAD: signed distance to the source row; NTH_VALUE: 0-based place in the frame. */
    private final long offset;
    /** MIN/MAX: the values as ordered longs. */
    private final long[] ordered;
    private final int[] source;

    PickedValueEvaluator(WindowCall call, Arguments args, int rows) {
        this.call = call;
        this.function = call.function();
        this.args = args;
        this.values = args.read(0, call.type());
        this.offset = switch (function) {
            case LAG -> -call.constantArgument(1, 1, Long.MIN_VALUE + 1);
            case LEAD -> call.constantArgument(1, 1, Long.MIN_VALUE + 1);
            case NTH_VALUE -> call.constantArgument(1, -1, 1) - 1;
            default -> 0;
        };
        boolean minMax = function == WindowFunction.MIN || function == WindowFunction.MAX;
        this.ordered = minMax ? RowOrder.sortable(values) : null;
        this.source = new int[rows];
    }

    @Override
    public void evaluate(int from, int to, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd) {
        switch (function) {
            case LAG, LEAD -> {
                for (int i = from; i < to; i++) {
                    long s = i + offset;
                    source[i] = s >= from && s < to ? (int) s : DEFAULT;
                }
            }
            case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                for (int i = from; i < to; i++) {
                    long s = function == WindowFunction.LAST_VALUE ? frameEnd[i] - 1L : frameStart[i] + offset;
                    source[i] = s >= frameStart[i] && s < frameEnd[i] ? (int) s : NULL;
                }
            }
            case MIN, MAX -> slideExtremes(from, to, frameStart, frameEnd);
            default -> throw new IllegalStateException(function + " does not pick a value");
        }
    }

    /** MIN/MAX of each frame: the deque holds positions of the frame whose values beat every later one's. */
    private void slideExtremes(int from, int to, int[] frameStart, int[] frameEnd) {
        boolean max = function == WindowFunction.MAX;
        int[] deque = new int[to - from];
        int head = 0;
        int tail = 0;
        int added = from;
        for (int i = from; i < to; i++) {
            for (; added < frameEnd[i]; added++) {
                if (values.isNull(added)) {
                    continue;
                }
                long v = ordered[added];
                while (tail > head && (max ? ordered[deque[tail - 1]] <= v : ordered[deque[tail - 1]] >= v)) {
                    tail--;
                }
                deque[tail++] = added;
            }
            while (tail > head && deque[head] < frameStart[i]) {
                head++;
            }
            source[i] = tail > head ? deque[head] : NULL;
        }
    }

    @Override
    public Column result() {
        int rows = source.length;
        boolean hasDefault = (function == WindowFunction.LAG || function == WindowFunction.LEAD) && call.args().size() > 2;
        int[] picked = new int[rows];
        int[] defaulted = new int[rows];
        int pickedCount = 0;
        int defaultedCount = 0;
        for (int i = 0; i < rows; i++) {
            if (source[i] >= 0) {
                picked[pickedCount++] = i;
            } else if (source[i] == DEFAULT && hasDefault) {
                defaulted[defaultedCount++] = i;
            }
        }
        ColumnBuilder out = new ColumnBuilder(call.type(), rows);
        int[] pickedRows = Arrays.copyOf(picked, pickedCount);
        int[] from = new int[pickedCount];
        for (int i = 0; i < pickedCount; i++) {
            from[i] = source[pickedRows[i]];
        }
        out.scatter(values.gather(from), pickedRows);
        if (defaultedCount > 0) {
            int[] defaultedRows = Arrays.copyOf(defaulted, defaultedCount);
            out.scatter(args.read(2, call.type()).gather(defaultedRows), defaultedRows);
        }
        return out.build();
    }
}
