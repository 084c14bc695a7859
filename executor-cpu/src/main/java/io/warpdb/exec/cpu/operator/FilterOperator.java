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

    FilterOperator(FilterNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.filter = new RowFilter(node.condition());
    }

    @Override
    public Batch next() {
        Batch in;
        while ((in = pullNonEmpty(input(0))) != null) {
            try {
                int[] passing = filter.passing(in);
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
}
