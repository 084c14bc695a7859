package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.ScanNode;

/**
 * Reads a table through its {@link io.warpdb.core.data.TableSource}, dropping empty batches;
 * or, in a copy of a parallel {@link Pipeline}, the morsels of a scan shared with other copies.
 */
final class ScanOperator extends Operator {
    ScanOperator(ScanNode node, ExecContext context) {
        this(node, node.table().scan(node.columns(), node.predicates(), context.allocator()), context);
    }

    ScanOperator(ScanNode node, BatchStream source, ExecContext context) {
        super(context, node.schema(), source);
    }

    @Override
    public Batch next() {
        return pullNonEmpty(input(0));
    }
}
