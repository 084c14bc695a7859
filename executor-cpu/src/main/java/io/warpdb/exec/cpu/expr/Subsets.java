package io.warpdb.exec.cpu.expr;

import io.warpdb.exec.cpu.column.Column;

/** Evaluating an argument on part of the rows, for the operators that must not evaluate it everywhere. */
final class Subsets {
    private Subsets() {
    }

    /**
     * {@code e} over the rows of {@code input} listed in {@code rows} (ascending, so that a list
     * as long as the input is all of it): row i of the result belongs to input row {@code rows[i]}.
     */
    static Column evaluateOn(Evaluator e, EvalInput input, int[] rows) {
        return rows.length == input.rowCount() ? e.evaluate(input) : e.evaluate(new SubsetInput(input, rows));
    }

    /**
     * The entries of {@code rows} whose value in {@code c} (a BOOLEAN column over those rows) is
     * TRUE, or with {@code wantTrue} false, is not TRUE.
     */
    static int[] split(Column c, int[] rows, boolean wantTrue) {
        int count = 0;
        for (int i = 0; i < rows.length; i++) {
            if (c.isTrue(i) == wantTrue) {
                count++;
            }
        }
        int[] out = new int[count];
        int at = 0;
        for (int i = 0; i < rows.length; i++) {
            if (c.isTrue(i) == wantTrue) {
                out[at++] = rows[i];
            }
        }
        return out;
    }

    static int[] allRows(int rowCount) {
        int[] rows = new int[rowCount];
        for (int i = 0; i < rowCount; i++) {
            rows[i] = i;
        }
        return rows;
    }
}
