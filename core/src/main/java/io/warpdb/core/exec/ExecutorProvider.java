package io.warpdb.core.exec;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.plan.PlanNode;

/**
 * An execution engine plug-in (CPU, GPU, ...), found through {@link java.util.ServiceLoader}
 * (see {@link ExecutorRegistry}).
 */
public interface ExecutorProvider {
    /** Short name users select it by: {@code cpu}, {@code gpu}. */
    String name();

    /** Whether it can run on this machine at all; the reason says why not. */
    Support availability();

    /** Whether it can run this node (not its inputs); the reason is shown by EXPLAIN. */
    Support supports(PlanNode node);

    /** Runs the plan; the stream's batches are allocated from the context's allocator. */
    BatchStream execute(PlanNode plan, ExecContext context);
}
