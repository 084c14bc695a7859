package io.warpdb.exec.cpu.expr;

import io.warpdb.exec.cpu.column.Column;
import java.util.Arrays;

/**
 * Some rows of another input, in the given order; referenced columns are gathered lazily. This
 * is how CASE, COALESCE, AND and OR evaluate an argument only on the rows that need it (so that
 * {@code CASE WHEN x <> 0 THEN y / x END} never divides by zero), and how a join evaluates its
 * residual over candidate row pairs.
 */
public final class SubsetInput implements EvalInput {
    private final EvalInput base;
    private final int[] rows;
    private Column[] gathered = new Column[8];

    public SubsetInput(EvalInput base, int[] rows) {
        this.base = base;
        this.rows = rows;
    }

    @Override
    public int rowCount() {
        return rows.length;
    }

    @Override
    public Column column(int index) {
        if (index >= gathered.length) {
            gathered = Arrays.copyOf(gathered, Math.max(index + 1, gathered.length * 2));
        }
        if (gathered[index] == null) {
            gathered[index] = base.gathered(index, rows);
        }
        return gathered[index];
    }
}
