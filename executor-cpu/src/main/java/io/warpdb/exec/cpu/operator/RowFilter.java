package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Op;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.BufferPredicate;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.expr.SubsetInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of a batch where a filter condition is TRUE, its conjuncts taken in
 * {@link Exprs#conjunctsInEvaluationOrder}. The conjuncts that compare exact columns
 * with constants or with each other, or test one string column, run first, on the Arrow buffers
 * ({@link BufferPredicate}), each narrowing a selection vector; the other conjuncts are then
 * evaluated only on the rows still selected. A pipeline's {@link JoinKeyFilter} narrows the
 * same selection, so that the scanned rows are gathered once for both: before or after the
 * conjuncts on the buffers, whichever of the two has kept the smaller share of the rows it
 * tested so far (TPC-H Q3: lineitem's ship dates keep 54 %, the orders' keys 17 %). Used by {@link FilterOperator} and by a {@link FusedFilter}, which an operator above
 * the filter runs itself.
 */
final class RowFilter {
    private final List<BufferPredicate> onBuffers;
    /** The conjuncts left to the evaluators; null when there are none. */
    private final Evaluator rest;
    /** The join keys the rows must be able to match; null when there are none to test. */
    private final JoinKeyFilter keys;
    /** Rows in and out of the key filter and of the conjuncts on the buffers, to order them. */
    private long keysTested;
    private long keysPassed;
    private long buffersTested;
    private long buffersPassed;

    /** The rows where {@code condition} (null: TRUE) holds and whose join keys pass {@code keys} (may be null). */
    RowFilter(Expr condition, JoinKeyFilter keys) {
        List<Expr> others = new ArrayList<>();
        this.onBuffers = condition == null ? List.of() : BufferPredicate.extract(Exprs.conjunctsInEvaluationOrder(condition), others);
        Expr remaining = others.stream().reduce((a, b) -> Call.of(Op.AND, condition.type(), a, b)).orElse(null);
        this.rest = remaining == null ? null : ExprCompiler.compile(remaining);
        this.keys = keys;
    }

    /** The positions of the rows where the condition is TRUE, ascending. */
    int[] passing(Batch in) {
        int rows = in.rowCount();
        boolean keysFirst = keys != null && keysFirst();
        int[] selected = keysFirst ? selectByKeys(in, null, rows) : null;
        int count = selected == null ? rows : selected.length;
        if (!onBuffers.isEmpty() && count > 0) {
            int tested = count;
            for (int p = 0; p < onBuffers.size() && count > 0; p++) {
                int[] out = selected != null ? selected : new int[count];
                count = onBuffers.get(p).select(in, selected, count, out);
                selected = out;
            }
            buffersTested += tested;
            buffersPassed += count;
            selected = selected.length == count ? selected : Arrays.copyOf(selected, count);
        }
        if (keys != null && !keysFirst && count > 0) {
            selected = selectByKeys(in, selected, count);
            count = selected.length;
        }
        if (rest == null || count == 0) {
            return selected != null ? selected : identity(rows);
        }
        if (selected == null) {
            return rest.evaluate(new BatchInput(in)).trueRows();
        }
        int[] kept = rest.evaluate(new SubsetInput(new BatchInput(in), selected)).trueRows();
        for (int i = 0; i < kept.length; i++) {
            kept[i] = selected[kept[i]];
        }
        return kept;
    }

    /** Whether the key filter has kept a smaller share of its rows than the conjuncts on the buffers (untested: yes). */
    private boolean keysFirst() {
        return onBuffers.isEmpty() || keysTested == 0 || buffersTested == 0
                || (double) keysPassed / keysTested <= (double) buffersPassed / buffersTested;
    }

    /** The rows of {@code selected} (null: the first {@code count} rows) that pass the key filter, ascending. */
    private int[] selectByKeys(Batch in, int[] selected, int count) {
        int[] out = selected != null ? selected : new int[count];
        int kept = keys.select(in, selected, count, out);
        keysTested += count;
        keysPassed += kept;
        return kept == out.length ? out : Arrays.copyOf(out, kept);
    }

    private static int[] identity(int count) {
        int[] rows = new int[count];
        for (int i = 0; i < count; i++) {
            rows[i] = i;
        }
        return rows;
    }
}
