package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.exec.cpu.batch.BatchRows;

/**
 * Keeps the rows where the condition is TRUE (see {@link RowFilter}). A batch whose rows all
 * pass is handed on as it is; one with no passing row is dropped; otherwise the passing rows are
 * gathered.
 */
final class FilterOperator extends Operator {
    private final RowFilter filter;

    /** Keeps the rows of {@code input} that pass the node's condition and {@code keys} (may be null). */
    FilterOperator(FilterNode node, BatchStream input, JoinKeyFilter keys, ExecContext context) {
        super(context, node.schema(), input);
        this.filter = new RowFilter(node.condition(), keys);
    }

    @Override
    public Batch next() {
        Batch in;
        while ((in = pullNonEmpty(input(0))) != null) {
            int[] passing;
            try {
                passing = filter.passing(in);
            } catch (RuntimeException e) {
                in.close();
                throw e;
            }
            Batch kept = BatchRows.keep(in, passing, passing.length, allocator());
            if (kept != null) {
                return kept;
            }
        }
        return null;
    }
}
