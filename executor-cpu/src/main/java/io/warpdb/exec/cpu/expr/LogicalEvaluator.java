package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * Three-valued AND / OR. The right side is evaluated only on the rows the left side does not
 * decide (AND: not FALSE; OR: not TRUE), so {@code x <> 0 AND y / x > 1} never divides by zero.
 * FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, otherwise NULL in gives NULL.
 */
final class LogicalEvaluator implements Evaluator {
    private final Evaluator left;
    private final Evaluator right;
    /** The value that decides the result on its own: 0 (FALSE) for AND, 1 (TRUE) for OR. */
    private final long decisive;
    private final DataType type;

    LogicalEvaluator(boolean isAnd, Evaluator left, Evaluator right, DataType type) {
        this.left = left;
        this.right = right;
        this.decisive = isAnd ? 0 : 1;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = left.evaluate(input);
        int rows = input.rowCount();
        long[] out = new long[rows];
        int undecidedCount = 0;
        for (int i = 0; i < rows; i++) {
            if (a.isNull(i) || a.longs()[i] != decisive) {
                undecidedCount++;
            }
            out[i] = decisive;
        }
        if (undecidedCount == 0) {
            return Column.ofLongs(type, out, null);
        }
        int[] undecided = new int[undecidedCount];
        for (int i = 0, at = 0; i < rows; i++) {
            if (a.isNull(i) || a.longs()[i] != decisive) {
                undecided[at++] = i;
            }
        }
        Column b = Subsets.evaluateOn(right, input, undecided);
        boolean[] nulls = null;
        for (int j = 0; j < undecided.length; j++) {
            int row = undecided[j];
            if (!b.isNull(j) && b.longs()[j] == decisive) {
                continue; // x AND FALSE = FALSE, x OR TRUE = TRUE, whatever x is
            }
            if (a.isNull(row) || b.isNull(j)) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[row] = true;
                out[row] = 0;
            } else {
                out[row] = 1 - decisive;
            }
        }
        return Column.ofLongs(type, out, nulls);
    }
}
