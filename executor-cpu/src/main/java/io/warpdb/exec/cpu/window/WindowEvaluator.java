package io.warpdb.exec.cpu.window;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
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

    /**
     * The whole number argument {@code index} of {@code call} (LAG's offset, NTILE's buckets), which
     * must be a non-NULL constant of at least {@code min}; {@code fallback} when the call has no such argument.
     */
    static long constantArgument(WindowCall call, int index, long fallback, long min) {
        if (call.args().size() <= index) {
            return fallback;
        }
        Expr arg = call.args().get(index);
        if (!(arg instanceof Literal literal) || !(literal.value() instanceof Long)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    call.function() + " with an argument that is not a constant integer is not supported yet");
        }
        long value = (Long) literal.value();
        if (value < min) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE,
                    "argument of " + call.function() + " must be at least " + min + ", not " + value);
        }
        return value;
    }
}
