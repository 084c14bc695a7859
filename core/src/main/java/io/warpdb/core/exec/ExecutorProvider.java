package io.warpdb.core.exec;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.plan.PlanNode;

/**
 * An execution engine plug-in (CPU, GPU, ...), found through {@link java.util.ServiceLoader}
 * (see {@link ExecutorRegistry}).
 *
 * <p>Plans may be split over executors (see {@link ExecContext}). Every executor follows one
 * rule when it builds the operator for an input node: if {@code context.executorFor(input)} is
 * non-null and differs from its own {@link #name()}, it calls {@code context.run(input)} and
 * consumes that stream; otherwise it builds the input itself.
 *
 * <p>For EXPLAIN ANALYZE, an executor records in {@code context.stats(node)} for every node it
 * builds: the executor that runs it ({@link NodeStats#setExecutor}, when it builds the operator),
 * the rows it yields and the wall time spent in its stream's {@code next()} including its inputs
 * ({@link MeteredStream} does both), and where they apply kernel time, bytes copied to and from
 * the device, and notes. A node it hands to another executor with {@link ExecContext#runOn} is
 * recorded by that executor, not again by the one that handed it over. If an executor records
 * nothing, {@link ExecContext#run} measures rows and wall time of the nodes it runs.
 *
 * <p>An executor that cannot run a node placed on it after all (e.g. out of device memory) never
 * picks another executor itself: it throws {@link ExecutorRefused} for the node before yielding
 * any of its batches, or, for a node inside the part of the plan it runs, gets the node's result
 * from {@link ExecContext#runRefused}. Either way the node runs on the fallback placement gave it.
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
