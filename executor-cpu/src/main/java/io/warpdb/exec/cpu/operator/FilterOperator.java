package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.BufferPredicate;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.expr.SubsetInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Keeps the rows where the condition is TRUE. The conjuncts that compare exact columns with
 * constants or with each other run first, on the Arrow buffers ({@link BufferPredicate}), each
 * narrowing a selection vector; the other conjuncts are then evaluated only on the rows still
 * selected. A batch whose rows all pass is handed on as it is; one with no passing row is
 * dropped; otherwise the passing rows are gathered.
 */
final class FilterOperator extends Operator {
    private final List<BufferPredicate> onBuffers;
    /** The conjuncts left to the evaluators; null when there are none. */
    private final Evaluator rest;

    FilterOperator(FilterNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        List<Expr> conjuncts = new ArrayList<>();
        Exprs.flatten(node.condition(), Op.AND, conjuncts);
        List<Expr> others = new ArrayList<>();
        this.onBuffers = BufferPredicate.extract(conjuncts, others);
        Expr remaining = others.stream().reduce((a, b) -> Call.of(Op.AND, node.condition().type(), a, b)).orElse(null);
        this.rest = remaining == null ? null : ExprCompiler.compile(remaining);
    }

    @Override
    public Batch next() {
        Batch in;
        while ((in = pullNonEmpty(input(0))) != null) {
            try {
                int[] passing = passing(in);
                if (passing.length == in.rowCount()) {
                    Batch all = in;
                    in = null;
                    return all;
                }
                if (passing.length > 0) {
                    return BatchRows.gather(in, passing, allocator());
                }
            } finally {
                if (in != null) {
                    in.close();
                }
            }
        }
        return null;
    }

    /** The positions of the rows where the condition is TRUE, ascending. */
    private int[] passing(Batch in) {
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
