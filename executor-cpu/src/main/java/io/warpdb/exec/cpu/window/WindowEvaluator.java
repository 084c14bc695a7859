package io.warpdb.exec.cpu.window;

import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * The values of one window call over rows already ordered by partition and order keys. Rows are
 * named by their sorted position; each partition is a range of positions, evaluated once, and
 * different partitions may be evaluated at the same time (they write disjoint positions).
 */
public abstract class WindowEvaluator {
    /** Reads a call's value arguments over the sorted rows. */
    @FunctionalInterface
    public interface Arguments {
        /** The values of argument {@code index} by sorted position, as {@code type} (null: the argument's own type). */
        Column read(int index, DataType type);
    }

    /** The evaluator of {@code call} over {@code rows} sorted rows. */
    public static WindowEvaluator create(WindowCall call, Arguments args, int rows) {
        return switch (call.function()) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE -> new RankingEvaluator(call, rows);
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN, MAX -> new PickedValueEvaluator(call, args, rows);
            case COUNT_STAR, COUNT, SUM, SUM0, AVG -> new FrameSumEvaluator(call, args, rows);
        };
    }

    /**
     * Computes the values of the partition at positions [from, to). Position i's peers (equal order
     * keys) are [peerStart[i], peerEnd[i]); its frame is [frameStart[i], frameEnd[i]), inside the
     * partition, possibly empty (both arrays null for a function that does not use the frame).
     */
    public abstract void evaluate(int from, int to, int[] peerStart, int[] peerEnd, int[] frameStart, int[] frameEnd);

    /** The values by sorted position, once every partition is evaluated. */
    public abstract Column result();
}
