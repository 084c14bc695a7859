package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SortNode;

/**
 * OFFSET/LIMIT without ORDER BY (a {@link SortNode} with no keys): streams the input, skipping
 * the first rows and stopping after the limit without reading further.
 */
final class LimitOperator extends Operator {
    private long toSkip;
    /** Rows still to emit; -1 for no limit. */
    private long remaining;

    LimitOperator(SortNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.toSkip = node.offset();
        this.remaining = node.limit();
    }

    @Override
    public Batch next() {
        while (remaining != 0) {
            Batch in = pullNonEmpty(input(0));
            if (in == null) {
                return null;
            }
            int rows = in.rowCount();
            int skip = (int) Math.min(toSkip, rows);
            int take = (int) (remaining < 0 ? rows - skip : Math.min(remaining, rows - skip));
            toSkip -= skip;
            if (remaining > 0) {
                remaining -= take;
            }
            if (skip == 0 && take == rows) {
                return in;
            }
            try (in) {
                if (take > 0) {
                    return Batches.slice(in, skip, take, allocator());
                }
            }
        }
        return null;
    }
}
