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
 * evaluated only on the rows still selected. Used by {@link FilterOperator} and by a
 * {@link FusedFilter}, which an operator above the filter runs itself.
 */
final class RowFilter {
    private final List<BufferPredicate> onBuffers;
    /** The conjuncts left to the evaluators; null when there are none. */
    private final Evaluator rest;

    RowFilter(Expr condition) {
        List<Expr> conjuncts = Exprs.conjunctsInEvaluationOrder(condition);
        List<Expr> others = new ArrayList<>();
        this.onBuffers = BufferPredicate.extract(conjuncts, others);
        Expr remaining = others.stream().reduce((a, b) -> Call.of(Op.AND, condition.type(), a, b)).orElse(null);
        this.rest = remaining == null ? null : ExprCompiler.compile(remaining);
    }

    /** The positions of the rows where the condition is TRUE, ascending. */
    int[] passing(Batch in) {
        int[] selected = null;
        int count = in.rowCount();
        for (BufferPredicate predicate : onBuffers) {
            int[] out = selected != null ? selected : new int[count];
            count = predicate.select(in, selected, count, out);
            selected = out;
            if (count == 0) {
                return new int[0];
            }
        }
        if (rest == null) {
            return selected.length == count ? selected : Arrays.copyOf(selected, count);
        }
        if (selected == null) {
            return rest.evaluate(new BatchInput(in)).trueRows();
        }
        int[] candidates = Arrays.copyOf(selected, count);
        int[] kept = rest.evaluate(new SubsetInput(new BatchInput(in), candidates)).trueRows();
        for (int i = 0; i < kept.length; i++) {
            kept[i] = candidates[kept[i]];
        }
        return kept;
    }
}
