package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;

/**
 * Keeps the rows where the condition is TRUE. A batch whose rows all pass is handed on as it
 * is; one with no passing row is dropped; otherwise the passing rows are gathered.
 */
final class FilterOperator extends Operator {
    private final Evaluator condition;

    FilterOperator(FilterNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.condition = ExprCompiler.compile(node.condition());
    }

    @Override
    public Batch next() {
        Batch in;
        while ((in = pullNonEmpty(input(0))) != null) {
            try {
                int[] passing = condition.evaluate(new BatchInput(in)).trueRows();
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
