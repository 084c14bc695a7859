package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.ConstantRows;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.ValuesNode;
import java.util.List;

/** Constant rows, in batches of up to {@link #MAX_BATCH_ROWS}; string columns get a fresh dictionary per batch. */
final class ValuesOperator extends Operator {
    private final List<List<Literal>> rows;
    private int nextRow;

    ValuesOperator(ValuesNode node, ExecContext context) {
        super(context, node.schema());
        this.rows = node.rows();
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        if (nextRow >= rows.size()) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, rows.size() - nextRow);
        Batch batch = ConstantRows.batch(schema(), rows, nextRow, count, allocator());
        nextRow += count;
        return batch;
    }
}
