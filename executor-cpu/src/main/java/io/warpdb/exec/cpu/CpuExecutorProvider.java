package io.warpdb.exec.cpu;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.exec.cpu.operator.Operators;

/**
 * The vectorized CPU executor: runs every plan node on any machine, as pull operators over
 * Arrow batches (see {@link Operators}).
 */
public final class CpuExecutorProvider implements ExecutorProvider {
    public static final String NAME = "cpu";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support availability() {
        return Support.YES;
    }

    @Override
    public Support supports(PlanNode node) {
        return Support.YES;
    }

    @Override
    public BatchStream execute(PlanNode plan, ExecContext context) {
        return Operators.create(plan, context);
    }
}
