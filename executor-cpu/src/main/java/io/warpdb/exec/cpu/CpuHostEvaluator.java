package io.warpdb.exec.cpu;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.HostEvaluator;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.operator.Operators;
import java.util.List;
import java.util.stream.IntStream;

/** Host evaluation by the CPU executor: a projection over a scan of the rows, run by its operators. */
public final class CpuHostEvaluator implements HostEvaluator {
    @Override
    public BatchStream evaluate(TableSource rows, List<Expr> exprs, Schema schema, ExecContext context) {
        List<Integer> columns = IntStream.range(0, rows.schema().size()).boxed().toList();
        return Operators.create(new ProjectNode(ScanNode.of(rows, columns), exprs, schema), context);
    }
}
