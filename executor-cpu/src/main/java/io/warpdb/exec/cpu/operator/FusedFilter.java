package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;

/**
 * A filter that the operator above it runs itself ({@link RowFilter}), so that no batch of the
 * passing rows is gathered between them; its rows and time still count under the filter's node.
 * Over a pipeline's scan it also runs the pipeline's {@link JoinKeyFilter}, with or without a
 * filter node.
 */
final class FusedFilter {
    private final RowFilter filter;
    private final NodeStats stats;

    /** Runs {@code node} (may be null) and {@code keys} (may be null). */
    FusedFilter(FilterNode node, JoinKeyFilter keys, ExecContext context) {
        this.filter = new RowFilter(node == null ? null : node.condition(), keys);
        this.stats = node == null ? null : context.stats(node);
        if (stats != null) {
            stats.setExecutor(CpuExecutorProvider.NAME);
        }
    }

    /** The positions of the batch's passing rows, ascending; null when every row passes. */
    int[] passing(Batch in) {
        long start = System.nanoTime();
        int[] passing = filter.passing(in);
        if (stats != null) {
            stats.addRows(passing.length);
            stats.addWallNanos(System.nanoTime() - start);
        }
        return passing.length == in.rowCount() ? null : passing;
    }
}
