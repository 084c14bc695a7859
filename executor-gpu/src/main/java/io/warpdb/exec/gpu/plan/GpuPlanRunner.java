package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.exec.ExecutorRefused;
import io.warpdb.core.exec.NodeStats;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.PlanVisitor;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.column.DeviceColumnCache;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.join.GpuJoin;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.runtime.TransferCounters;
import io.warpdb.exec.gpu.select.FilterProject;
import io.warpdb.exec.gpu.setop.GpuSetOperation;
import io.warpdb.exec.gpu.setop.GpuUnionAll;
import io.warpdb.exec.gpu.sort.GpuSort;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs the GPU part of a plan operator by operator, keeping every intermediate result in device
 * memory. Inputs placed on another executor arrive as batches and are copied in; table columns
 * come from the {@link DeviceColumnCache} when a previous query left them there, else from storage
 * ({@link GpuScan}: decoded on the device where storage offers the stored chunks). A node that runs
 * out of device memory is refused ({@link ExecutorRefused}): the context reruns it on the fallback
 * placement gave it, notes that in its statistics, and its result is copied in.
 * A projection over a filter runs as one fused pass (the filter's statistics note that).
 */
public final class GpuPlanRunner {
    public static final String NAME = "gpu";

    private final ExecContext context;
    private final CudaDevice device;
    private final GpuScan scans;
    private final HostEntryEvaluator entries;

    public GpuPlanRunner(ExecContext context, CudaDevice device, DeviceColumnCache cache) {
        this.context = context;
        this.device = device;
        this.scans = new GpuScan(context, cache);
        this.entries = new HostEntryEvaluator(context);
    }

    /** The result of {@code node} in device memory; the caller closes it. */
    public DeviceTable evaluate(PlanNode node) {
        context.checkCancelled();
        String placed = context.executorFor(node);
        if (placed != null && !placed.equals(NAME)) {
            return copyIn(node, context.run(node));
        }
        long start = System.nanoTime();
        NodeStats stats = context.stats(node);
        try {
            DeviceTable result = evaluateHere(node, stats);
            stats.setExecutor(NAME);
            stats.addRows(result.rows());
            stats.addWallNanos(System.nanoTime() - start);
            return result;
        } catch (GpuOutOfMemoryException e) {
            return copyIn(node, context.runRefused(outOfMemory(node, e)));
        }
    }

    /** The refusal of a node the device had no memory for. */
    public static ExecutorRefused outOfMemory(PlanNode node, GpuOutOfMemoryException e) {
        return new ExecutorRefused(node, SqlState.OUT_OF_MEMORY, NAME + " out of memory (" + e.getMessage() + ")", e);
    }

    private DeviceTable evaluateHere(PlanNode node, NodeStats stats) {
        try (DeviceWork work = new DeviceWork(device)) {
            try {
                return node.accept(new Operator(work));
            } finally {
                work.synchronize();
                stats.addKernelNanos(work.kernelNanos());
                stats.addBytesToDevice(work.bytesToDevice());
                TransferCounters.addBytesToDevice(work.bytesToDevice());
                stats.addBytesToHost(work.bytesToHost());
            }
        }
    }

    /** The device operator of one node, queued on {@code work}; its inputs are evaluated first. */
    private final class Operator implements PlanVisitor<DeviceTable> {
        private final DeviceWork work;

        Operator(DeviceWork work) {
            this.work = work;
        }

        @Override
        public DeviceTable visitScan(ScanNode scan) {
            return scans.run(scan, work);
        }

        @Override
        public DeviceTable visitValues(ValuesNode values) {
            throw new IllegalStateException("the GPU executor was given " + values.describe());
        }

        @Override
        public DeviceTable visitFilter(FilterNode filter) {
            return overInput(filter.input(),
                    input -> FilterProject.run(input, filter.condition(), identity(filter.schema()), filter.schema(), entries, work));
        }

        @Override
        public DeviceTable visitProject(ProjectNode project) {
            return project(project, work);
        }

        @Override
        public DeviceTable visitAggregate(AggregateNode aggregate) {
            return overInput(aggregate.input(), input -> GpuAggregate.run(aggregate, input, work));
        }

        @Override
        public DeviceTable visitJoin(JoinNode join) {
            return join(join, work);
        }

        @Override
        public DeviceTable visitSort(SortNode sort) {
            return overInput(sort.input(), input -> GpuSort.run(sort, input, work));
        }

        @Override
        public DeviceTable visitUnion(UnionNode union) {
            return unionAll(union, work);
        }

        @Override
        public DeviceTable visitSetOp(SetOpNode setOp) {
            return setOperation(setOp, work);
        }

        @Override
        public DeviceTable visitWindow(WindowNode window) {
            throw new IllegalStateException("the GPU executor was given " + window.describe());
        }

        /** {@code operator} over the device result of {@code input}, which is freed once its kernels are done. */
        private DeviceTable overInput(PlanNode input, Function<DeviceTable, DeviceTable> operator) {
            try (DeviceTable table = evaluate(input)) {
                DeviceTable result = operator.apply(table);
                work.synchronize();
                return result;
            }
        }
    }

    private DeviceTable join(JoinNode join, DeviceWork work) {
        try (DeviceTable left = evaluate(join.left()); DeviceTable right = evaluate(join.right())) {
            DeviceTable result = GpuJoin.run(join, left, right, entries, work);
            work.synchronize();
            return result;
        }
    }

    private DeviceTable setOperation(SetOpNode setOp, DeviceWork work) {
        try (DeviceTable left = evaluate(setOp.left()); DeviceTable right = evaluate(setOp.right())) {
            DeviceTable result = GpuSetOperation.run(setOp, left, right, work);
            work.synchronize();
            return result;
        }
    }

    private DeviceTable unionAll(UnionNode union, DeviceWork work) {
        List<DeviceTable> inputs = new ArrayList<>();
        try {
            for (PlanNode in : union.inputs()) {
                inputs.add(evaluate(in));
            }
            return GpuUnionAll.run(union, inputs, work);
        } finally {
            work.synchronize();
            inputs.forEach(DeviceTable::close);
        }
    }

    /** A projection of a GPU filter runs fused: one pass evaluates the predicate and the expressions. */
    private DeviceTable project(ProjectNode project, DeviceWork work) {
        if (project.input() instanceof FilterNode filter && NAME.equals(placementOf(filter))) {
            long start = System.nanoTime();
            try (DeviceTable input = evaluate(filter.input())) {
                DeviceTable result = FilterProject.run(input, filter.condition(), project.exprs(), project.schema(), entries, work);
                NodeStats fs = context.stats(filter);
                fs.setExecutor(NAME);
                fs.addRows(result.rows());
                fs.addWallNanos(System.nanoTime() - start);
                fs.note("fused into the projection above");
                return result;
            }
        }
        try (DeviceTable input = evaluate(project.input())) {
            return FilterProject.run(input, null, project.exprs(), project.schema(), entries, work);
        }
    }

    private String placementOf(PlanNode node) {
        String placed = context.executorFor(node);
        return placed == null ? NAME : placed;
    }

    /** Copies another executor's result into device memory. */
    private DeviceTable copyIn(PlanNode node, BatchStream stream) {
        List<Batch> batches;
        try (stream) {
            batches = GpuScan.readAll(stream, context);
        }
        try (DeviceWork work = new DeviceWork(device)) {
            DeviceTable table = HostToDevice.upload(node.schema(), batches, work);
            context.stats(node).addBytesToDevice(work.bytesToDevice());
            TransferCounters.addBytesToDevice(work.bytesToDevice());
            return table;
        } finally {
            batches.forEach(Batch::close);
        }
    }

    private static List<Expr> identity(Schema schema) {
        List<Expr> refs = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            refs.add(new ColumnRef(i, schema.type(i)));
        }
        return refs;
    }
}
