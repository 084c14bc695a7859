package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.Field;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.ColumnsInput;
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.expr.SubsetInput;
import java.util.List;

/**
 * A projection, with the filter below it if any, that a hash aggregate runs itself on each input
 * batch: the expressions are evaluated straight into the columns the aggregate reads instead of
 * being written to Arrow vectors that the aggregate reads back (TPC-H Q1: 6 M rows, 7 columns,
 * 4 of them computed). Its rows and time count under the projection's node (the time without the
 * pulls of its input, which the aggregate makes). One per worker, since evaluators keep state.
 */
final class FusedProjection {
    private final FusedFilter filter;
    private final List<Evaluator> evaluators;
    private final NodeStats stats;

    /** {@code filter}, the projection's input, may be null. */
    FusedProjection(ProjectNode project, FilterNode filter, ExecContext context) {
        this.filter = filter == null ? null : new FusedFilter(filter, null, context);
        this.evaluators = ExprCompiler.compileAll(project.exprs(), project.schema().fields().stream().map(Field::type).toList());
        this.stats = context.stats(project);
        stats.setExecutor(CpuExecutorProvider.NAME);
    }

    /** The projected columns of the batch's passing rows; null when no row passes. */
    EvalInput apply(Batch in) {
        long start = System.nanoTime();
        try {
            int[] passing = filter == null ? null : filter.passing(in);
            if (passing != null && passing.length == 0) {
                return null;
            }
            EvalInput rows = passing == null ? new BatchInput(in) : new SubsetInput(new BatchInput(in), passing);
            Column[] columns = new Column[evaluators.size()];
            for (int i = 0; i < columns.length; i++) {
                columns[i] = evaluators.get(i).evaluate(rows);
            }
            stats.addRows(rows.rowCount());
            return new ColumnsInput(rows.rowCount(), columns);
        } finally {
            stats.addWallNanos(System.nanoTime() - start);
        }
    }
}
