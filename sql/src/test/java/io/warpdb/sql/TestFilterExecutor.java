package io.warpdb.sql;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorProvider;
import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;

/**
 * A test-only executor (registered on the sql module's test class path only) that runs filters
 * and nothing else, so that plans split over two executors. It borrows the CPU's operators,
 * which follow the placement for the filter's input, and records itself as the executor.
 */
public final class TestFilterExecutor implements ExecutorProvider {
    static final String NAME = "testfilter";

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
        return node instanceof FilterNode ? Support.YES : Support.no("it runs filters only");
    }

    @Override
    public BatchStream execute(PlanNode plan, ExecContext context) {
        if (!(plan instanceof FilterNode)) {
            throw new IllegalArgumentException(NAME + " cannot run " + plan.describe());
        }
        BatchStream stream = new CpuExecutorProvider().execute(plan, context);
        context.stats(plan).setExecutor(NAME);
        return stream;
    }
}
