package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.MeteredStream;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the operator tree of a plan, one operator per plan node. Inputs placed on another
 * executor come from {@link ExecContext#run}; every operator built here is metered into its
 * node's statistics (see {@link io.warpdb.core.exec.ExecutorProvider}).
 */
public final class Operators {
    private Operators() {
    }

    /**
     * The root operator of {@code plan}; if building fails, what was already built is closed. A
     * pipeline worth running in parallel (see {@link Pipeline}) is gathered from its workers.
     */
    public static BatchStream create(PlanNode plan, ExecContext context) {
        if (!(plan instanceof ScanNode)) {
            Pipeline pipeline = Pipeline.of(plan, context);
            if (pipeline != null) {
                // Each copy meters its own nodes; the gather adds nothing to count.
                return new GatherOperator(pipeline, pipeline.copies(plan));
            }
        }
        return metered(plan, build(plan, context), context);
    }

    /** {@code operator} counted into the statistics of {@code plan}. */
    static BatchStream metered(PlanNode plan, BatchStream operator, ExecContext context) {
        NodeStats stats = context.stats(plan);
        stats.setExecutor(CpuExecutorProvider.NAME);
        return new MeteredStream(operator, stats);
    }

    private static BatchStream build(PlanNode plan, ExecContext context) {
        if (plan instanceof ScanNode scan) {
            return new ScanOperator(scan, context);
        }
        if (plan instanceof ValuesNode values) {
            return new ValuesOperator(values, context);
        }
        if (plan instanceof AggregateNode aggregate && HashAggregateOperator.mergeable(aggregate)) {
            Pipeline pipeline = Pipeline.of(aggregate.input(), context);
            if (pipeline != null) {
                return new HashAggregateOperator(aggregate, pipeline.copies(aggregate.input()), context);
            }
        }
        if (plan instanceof JoinNode join && join.buildLeft()) {
            return leftBuildSemiJoin(join, context);
        }
        if (plan instanceof JoinNode join && AdaptiveJoinOperator.applies(join)) {
            return new AdaptiveJoinOperator(join, input(join.left(), context), context);
        }
        FilterNode fused = plan instanceof ProjectNode project ? fusedFilter(project, context) : null;
        if (fused != null) {
            return new ProjectOperator((ProjectNode) plan, input(fused.input(), context), fused, context);
        }
        List<BatchStream> inputs = new ArrayList<>();
        try {
            for (PlanNode input : plan.inputs()) {
                inputs.add(input(input, context));
            }
            return withInputs(plan, inputs, context);
        } catch (RuntimeException e) {
            BatchRows.closeAll(inputs);
            throw e;
        }
    }

    /**
     * The right input probes in parallel when it is a pipeline worth it; its scan then drops the
     * rows whose key is not among the left's, as neither SEMI nor ANTI has a use for them.
     */
    private static BatchStream leftBuildSemiJoin(JoinNode join, ExecContext context) {
        JoinBuild leftIndex = LeftBuildSemiJoinOperator.leftIndex(join, input(join.left(), context), context);
        try {
            Pipeline pipeline = Pipeline.probing(join.right(), join.rightKeys(), join.left().schema(), join.leftKeys(), leftIndex,
                    context);
            List<BatchStream> probes = pipeline != null ? pipeline.copies(join.right()) : List.of(input(join.right(), context));
            return new LeftBuildSemiJoinOperator(join, leftIndex, probes, context);
        } catch (RuntimeException e) {
            leftIndex.close();
            throw e;
        }
    }

    /** The filter below {@code project} that it runs itself: one placed on this executor, else null. */
    static FilterNode fusedFilter(ProjectNode project, ExecContext context) {
        if (!(project.input() instanceof FilterNode filter)) {
            return null;
        }
        String placed = context.executorFor(filter);
        return placed == null || placed.equals(CpuExecutorProvider.NAME) ? filter : null;
    }

    /** An input placed on another executor runs there; any other is built here. */
    static BatchStream input(PlanNode input, ExecContext context) {
        String placed = context.executorFor(input);
        return placed != null && !placed.equals(CpuExecutorProvider.NAME) ? context.run(input) : create(input, context);
    }

    private static BatchStream withInputs(PlanNode plan, List<BatchStream> inputs, ExecContext context) {
        if (plan instanceof FilterNode filter) {
            return new FilterOperator(filter, inputs.get(0), context);
        }
        if (plan instanceof ProjectNode project) {
            return new ProjectOperator(project, inputs.get(0), context);
        }
        if (plan instanceof AggregateNode aggregate) {
            return new HashAggregateOperator(aggregate, inputs, context);
        }
        if (plan instanceof JoinNode join) {
            return new HashJoinOperator(join, inputs.get(0), new JoinBuild(join, inputs.get(1), context), true, context);
        }
        if (plan instanceof SortNode sort) {
            return sort.keys().isEmpty() ? new LimitOperator(sort, inputs.get(0), context)
                    : new SortOperator(sort, inputs.get(0), context);
        }
        if (plan instanceof UnionNode union) {
            return new UnionAllOperator(union, inputs, context);
        }
        if (plan instanceof SetOpNode setOp) {
            return new SetOperationOperator(setOp, inputs.get(0), inputs.get(1), context);
        }
        throw new IllegalArgumentException("unknown plan node " + plan.describe());
    }
}
