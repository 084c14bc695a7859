package io.warpdb.sql.translate;

import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands the simple conjuncts of a filter directly above a scan ({@code column op constant},
 * {@code column IS [NOT] NULL}) to the scan, so that storage skips chunks whose zone maps rule
 * them out. The filter stays: the hints only prune.
 */
final class ScanPredicates {
    private ScanPredicates() {
    }

    /** The filter over a scan that carries the filter's prunable conjuncts. */
    static PlanNode pushInto(FilterNode filter, ScanNode scan) {
        List<ColumnPredicate> hints = new ArrayList<>();
        collect(filter.condition(), scan, hints);
        return hints.isEmpty() ? filter : new FilterNode(scan.withPredicates(hints), filter.condition());
    }

    private static void collect(Expr condition, ScanNode scan, List<ColumnPredicate> out) {
        if (!(condition instanceof Call call)) {
            return;
        }
        switch (call.op()) {
            case AND -> call.args().forEach(a -> collect(a, scan, out));
            case IS_NULL, IS_NOT_NULL -> {
                if (call.arg(0) instanceof ColumnRef ref && scan.columns().get(ref.index()) >= 0) {
                    out.add(new ColumnPredicate(scan.columns().get(ref.index()),
                            call.op() == io.warpdb.core.expr.Op.IS_NULL ? Comparison.IS_NULL : Comparison.IS_NOT_NULL, null));
                }
            }
            case EQ, LT, LE, GT, GE -> comparison(call, scan, out);
            default -> { }
        }
    }

    private static void comparison(Call call, ScanNode scan, List<ColumnPredicate> out) {
        boolean columnFirst = call.arg(0) instanceof ColumnRef && call.arg(1) instanceof Literal;
        boolean columnSecond = call.arg(1) instanceof ColumnRef && call.arg(0) instanceof Literal;
        if (!columnFirst && !columnSecond) {
            return;
        }
        ColumnRef ref = (ColumnRef) call.arg(columnFirst ? 0 : 1);
        Literal value = (Literal) call.arg(columnFirst ? 1 : 0);
        int column = scan.columns().get(ref.index());
        if (value.isNull() || column < 0) {
            return;
        }
        Comparison op = switch (call.op()) {
            case EQ -> Comparison.EQ;
            case LT -> columnFirst ? Comparison.LT : Comparison.GT;
            case LE -> columnFirst ? Comparison.LE : Comparison.GE;
            case GT -> columnFirst ? Comparison.GT : Comparison.LT;
            default -> columnFirst ? Comparison.GE : Comparison.LE;
        };
        out.add(new ColumnPredicate(column, op, value));
    }
}
