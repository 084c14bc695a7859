package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.MeteredStream;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.PlanVisitor;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
        return plan.accept(new Builder(context));
    }

    /** The operator of one node, its inputs built (or run where they are placed) first. */
    private static final class Builder implements PlanVisitor<BatchStream> {
        private final ExecContext context;

        Builder(ExecContext context) {
            this.context = context;
        }

        @Override
        public BatchStream visitScan(ScanNode scan) {
            return new ScanOperator(scan, context);
        }

        @Override
        public BatchStream visitValues(ValuesNode values) {
            return new ValuesOperator(values, context);
        }

        @Override
        public BatchStream visitFilter(FilterNode filter) {
            return overInputs(filter, inputs -> new FilterOperator(filter, inputs.get(0), null, context));
        }

        @Override
        public BatchStream visitProject(ProjectNode project) {
            FilterNode fused = fusedFilter(project, context);
            if (fused != null) {
                return new ProjectOperator(project, input(fused.input(), context), fused, null, context);
            }
            return overInputs(project, inputs -> new ProjectOperator(project, inputs.get(0), context));
        }

        @Override
        public BatchStream visitAggregate(AggregateNode aggregate) {
            if (HashAggregateOperator.mergeable(aggregate)) {
                // The workers run the projection below (and its filter) themselves, straight into the columns they aggregate.
                ProjectNode project = aggregate.input() instanceof ProjectNode p && placedHere(p, context) ? p : null;
                FilterNode filter = project == null ? null : fusedFilter(project, context);
                PlanNode below = filter != null ? filter.input() : project != null ? project.input() : aggregate.input();
                Pipeline pipeline = Pipeline.of(below, context);
                if (pipeline != null) {
                    return new HashAggregateOperator(aggregate, project, filter, pipeline.copies(below), context);
                }
            }
            return overInputs(aggregate, inputs -> new HashAggregateOperator(aggregate, inputs, context));
        }

        @Override
        public BatchStream visitJoin(JoinNode join) {
            if (join.buildLeft()) {
                return leftBuildSemiJoin(join, context);
            }
            if (AdaptiveJoinOperator.applies(join)) {
                return new AdaptiveJoinOperator(join, input(join.left(), context), context);
            }
            return overInputs(join, inputs ->
                    new HashJoinOperator(join, inputs.get(0), new JoinBuild(join, inputs.get(1), context), true, context));
        }

        @Override
        public BatchStream visitSort(SortNode sort) {
            return overInputs(sort, inputs -> sort.keys().isEmpty() ? new LimitOperator(sort, inputs.get(0), context)
                    : new SortOperator(sort, inputs.get(0), context));
        }

        @Override
        public BatchStream visitUnion(UnionNode union) {
            return overInputs(union, inputs -> new UnionAllOperator(union, inputs, context));
        }

        @Override
        public BatchStream visitSetOp(SetOpNode setOp) {
            return overInputs(setOp, inputs -> new SetOperationOperator(setOp, inputs.get(0), inputs.get(1), context));
        }

        @Override
        public BatchStream visitWindow(WindowNode window) {
            return overInputs(window, inputs -> new WindowOperator(window, inputs.get(0), context));
        }

        @Override
        public BatchStream visitShared(SharedNode shared) {
            return new SharedReadOperator(shared, context);
        }

        /** {@code operator} over the streams of the node's inputs, which are closed if building fails. */
        private BatchStream overInputs(PlanNode plan, Function<List<BatchStream>, BatchStream> operator) {
            List<BatchStream> inputs = new ArrayList<>();
            try {
                for (PlanNode input : plan.inputs()) {
                    inputs.add(input(input, context));
                }
                return operator.apply(inputs);
            } catch (RuntimeException e) {
                BatchRows.closeAll(inputs);
                throw e;
            }
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
        return project.input() instanceof FilterNode filter && placedHere(filter, context) ? filter : null;
    }

    /** Whether {@code node} runs on this executor (placed here, or not placed at all). */
    private static boolean placedHere(PlanNode node, ExecContext context) {
        String placed = context.executorFor(node);
        return placed == null || placed.equals(CpuExecutorProvider.NAME);
    }

    /** An input placed on another executor runs there; any other is built here. */
    static BatchStream input(PlanNode input, ExecContext context) {
        String placed = context.executorFor(input);
        return placed != null && !placed.equals(CpuExecutorProvider.NAME) ? context.run(input) : create(input, context);
    }
}
