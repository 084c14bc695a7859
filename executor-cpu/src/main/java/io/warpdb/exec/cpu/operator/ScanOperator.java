package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.ScanNode;

/** Reads a table through its {@link io.warpdb.core.data.TableSource}, dropping empty batches. */
final class ScanOperator extends Operator {
    ScanOperator(ScanNode node, ExecContext context) {
        super(context, node.schema(), node.table().scan(node.columns(), node.predicates(), context.allocator()));
    }

    @Override
    public Batch next() {
        return pullNonEmpty(input(0));
    }
}
