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
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceColumnCache;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.join.GpuJoin;
import io.warpdb.core.batch.Batches;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.join.OutOfCoreJoin;
import io.warpdb.exec.gpu.aggregate.OutOfCoreAggregate;
import io.warpdb.exec.gpu.aggregate.PartialAggregate;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.runtime.TransferCounters;
import io.warpdb.exec.gpu.select.FilterProject;
import io.warpdb.exec.gpu.setop.GpuSetOperation;
import io.warpdb.exec.gpu.setop.GpuUnionAll;
import io.warpdb.exec.gpu.sort.GpuSort;
import io.warpdb.exec.gpu.sort.OutOfCoreSort;
import io.warpdb.exec.gpu.window.GpuWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs the GPU part of a plan operator by operator, keeping every intermediate result in device
 * memory. Inputs placed on another executor arrive as batches and are copied in; table columns
 * come from the {@link DeviceColumnCache} when a previous query left them there, else from storage
 * ({@link GpuScan}: decoded on the device where storage offers the stored chunks). A node that runs
 * out of device memory is refused ({@link ExecutorRefused}): the context reruns it on the fallback
 * placement gave it, notes that in its statistics, and its result is copied in.
 * A projection over a filter runs as one fused pass (the filter's statistics note that). A shared
 * subplan's result stays on the device for all its uses ({@link Operator#visitShared}).
 */
public final class GpuPlanRunner {
    public static final String NAME = "gpu";

    private final ExecContext context;
    /** The device in-core work runs on: the first of {@link #devices}. */
    private final CudaDevice device;
    /** Every device the executor uses; out-of-core work is dealt over them. */
    private final List<CudaDevice> devices;
    private final GpuScan scans;
    private final HostEntryEvaluator entries;
    /** The device memory this query may hold at once. */
    private final DeviceBudget budget;

    /**
     * A runner whose query may hold {@code budget} of device memory on each of {@code devices} (at
     * most a pool's capacity); in-core work runs on the first device, whose columns {@code cache} holds.
     */
    public GpuPlanRunner(ExecContext context, List<CudaDevice> devices, DeviceColumnCache cache, DeviceBudget budget) {
        this.context = context;
        this.devices = List.copyOf(devices);
        this.device = this.devices.get(0);
        this.scans = new GpuScan(context, cache);
        this.entries = new HostEntryEvaluator(context);
        this.budget = budget;
    }

    /**
     * The plan's rows for the host: a join, aggregation or sort at the root that ran out of core hands
     * over its host rows as they are (they may exceed the device); any other result is downloaded
     * as it streams.
     */
    public BatchStream execute(PlanNode root, Function<DeviceTable, BatchStream> download) {
        if (partitioned(root) && placementOf(root).equals(NAME)) {
            context.checkCancelled();
            Result result;
            try {
                result = measured(root, work -> partitionedOperator(root, work));
            } catch (GpuOutOfMemoryException e) {
                return context.runRefused(outOfMemory(root, e));
            }
            if (result.host() != null) {
                return Batches.of(root.schema(), result.host().batches());
            }
            return download.apply(result.device());
        }
        return download.apply(evaluate(root));
    }

    /** The result of {@code node} in device memory; the caller closes it. */
    public DeviceTable evaluate(PlanNode node) {
        context.checkCancelled();
        String placed = context.executorFor(node);
        if (placed != null && !placed.equals(NAME)) {
            return copyIn(node, context.run(node));
        }
        try {
            ScanNode streamedScan = StreamedChain.scanUnder(node, this::onGpu);
            if (streamedScan != null && !PartitionPlan.fitsInCore(InputEstimate.bytes(streamedScan), budgetBytes())) {
                // The table exceeds the budget: its chunks stream through the device, the chain's rows are copied in again.
                return measured(node, work -> {
                    try (HostTable rows = streamed(node, streamedScan)) {
                        return HostToDevice.upload(node.schema(), rows.batches(), work);
                    }
                });
            }
            return measured(node, work -> node.accept(new Operator(work)));
        } catch (GpuOutOfMemoryException e) {
            return copyIn(node, context.runRefused(outOfMemory(node, e)));
        }
    }

    /**
     * The rows of the chain of filters and projections {@code top} over {@code scan}, streamed
     * through the devices chunk by chunk ({@link StreamedChain}) into host memory; EXPLAIN ANALYZE
     * notes the chunks and copies on {@code top}, and the nodes under it as streamed with it.
     */
    private HostTable streamed(PlanNode top, ScanNode scan) {
        OutOfCoreResult result = StreamedChain.run(top, scan, entries, devices, budgetBytes(), context.allocator(), hostRows(scan));
        markStreamed(top, scan, null);
        return report(top, result);
    }

    /** Notes the chain's nodes under {@code top} as streamed with it, and {@code report} (when given) on {@code top}. */
    private void markStreamed(PlanNode top, ScanNode scan, OutOfCoreReport report) {
        if (report != null) {
            context.stats(top).setExecutor(NAME);
            noteReport(top, report);
        }
        for (PlanNode at = top; at != scan; ) {
            at = at.inputs().get(0);
            NodeStats below = context.stats(at);
            below.setExecutor(NAME);
            below.note("streamed in chunks with the node above");
        }
    }

    /**
     * An aggregation over a streamed chain whose chunks are aggregated as they come (seed 002's
     * pipeline with the aggregation's partial step in each chunk): only the chunks' partial
     * states come back, merged and finished at the end.
     */
    private HostTable streamedAggregate(AggregateNode aggregate, ScanNode scan, DeviceWork work) {
        StreamedChain.Outputs<PartialAggregate> partials = StreamedChain.run(aggregate.input(), scan, entries, devices, budgetBytes(),
                context.allocator(), hostRows(scan), (rows, w) -> OutOfCoreAggregate.partialOfChunk(aggregate, rows,
                        context.allocator(), w));
        try {
            HostTable groups = OutOfCoreAggregate.mergePartials(aggregate, partials.outputs(), context.allocator(), work);
            int partialGroups = partials.outputs().stream().mapToInt(PartialAggregate::groups).sum();
            context.stats(aggregate).note("aggregated chunk by chunk as the input streamed: " + partialGroups + " partial groups of "
                    + partials.outputs().size() + " chunks merged into " + groups.rows());
            markStreamed(aggregate.input(), scan, partials.report());
            return groups;
        } finally {
            partials.outputs().forEach(PartialAggregate::close);
        }
    }

    private Supplier<List<Batch>> hostRows(ScanNode scan) {
        return () -> GpuScan.readAll(scan.table().scan(scan.columns(), scan.predicates(), context.allocator()), context);
    }

    private boolean onGpu(PlanNode node) {
        return NAME.equals(placementOf(node));
    }

    /** The refusal of a node the device had no memory for. */
    public static ExecutorRefused outOfMemory(PlanNode node, GpuOutOfMemoryException e) {
        return new ExecutorRefused(node, SqlState.OUT_OF_MEMORY, NAME + " out of memory (" + e.getMessage() + ")", e);
    }

    /** {@code operator} of {@code node} on a work of its own, its rows, time, kernel time and copies recorded. */
    private <T> T measured(PlanNode node, Function<DeviceWork, T> operator) {
        long start = System.nanoTime();
        NodeStats stats = context.stats(node);
        T result;
        try (DeviceWork work = new DeviceWork(device, budget)) {
            try {
                result = operator.apply(work);
            } finally {
                work.synchronize();
                stats.addKernelNanos(work.kernelNanos());
                stats.addBytesToDevice(work.bytesToDevice());
                TransferCounters.addBytesToDevice(work.bytesToDevice());
                stats.addBytesToHost(work.bytesToHost());
            }
            DeviceTable produced = result instanceof DeviceTable t ? t : ((Result) result).device();
            if (produced != null && !(node instanceof ScanNode)) {
                // A scan counts what it put in device memory itself: cached columns were not written.
                work.countDeviceWritten(written(produced, work));
            }
            stats.addDeviceBytesRead(work.deviceBytesRead());
            stats.addDeviceBytesWritten(work.deviceBytesWritten());
        }
        stats.setExecutor(NAME);
        stats.addRows(result instanceof DeviceTable t ? t.rows() : ((Result) result).rows());
        stats.addWallNanos(System.nanoTime() - start);
        return result;
    }

    /**
     * {@code input} as the operator on {@code work} consumes it: every row of each column counted as
     * read once (dev_read), an estimate per node rather than per kernel launch.
     */
    private static DeviceTable consumed(DeviceTable input, DeviceWork work) {
        for (DeviceColumn column : input.columns()) {
            work.countDeviceRead(column.values(), column.dataBytes());
        }
        return input;
    }

    /** The bytes of {@code result}'s columns that its operator made: those passed on from an input were not written. */
    private static long written(DeviceTable result, DeviceWork work) {
        return result.columns().stream().filter(column -> !work.countedAsRead(column.values()))
                .mapToLong(DeviceColumn::dataBytes).sum();
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
            return GpuValues.run(values, context.allocator(), work);
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
            return partitionedOperator(aggregate, work).onDevice(work);
        }

        @Override
        public DeviceTable visitJoin(JoinNode join) {
            return partitionedOperator(join, work).onDevice(work);
        }

        @Override
        public DeviceTable visitSort(SortNode sort) {
            return partitionedOperator(sort, work).onDevice(work);
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
            return overInput(window.input(), input -> GpuWindow.run(window, input, work));
        }

        /**
         * The device result of the shared subplan, made by the first use (the statement's context
         * owns it until the statement ends) and handed to every use as references of its own: it
         * stays in device memory, never copied to the host and back.
         */
        @Override
        public DeviceTable visitShared(SharedNode shared) {
            return context.shared(NAME, shared.id(), () -> evaluate(shared.input())).share();
        }

        /** {@code operator} over the device result of {@code input}, which is freed once its kernels are done. */
        private DeviceTable overInput(PlanNode input, Function<DeviceTable, DeviceTable> operator) {
            try (DeviceTable table = evaluate(input)) {
                DeviceTable result = operator.apply(consumed(table, work));
                work.synchronize();
                return result;
            }
        }
    }

    /** A result in device memory (in core), or in host memory (out of core); owned by the caller. */
    private record Result(DeviceTable device, HostTable host) implements AutoCloseable {
        long rows() {
            return device != null ? device.rows() : host.rows();
        }

        /** The device memory its rows take (or would take) as columns. */
        long deviceBytes() {
            return device != null ? device.rows() * HostTable.rowBytes(device.schema()) : host.deviceBytes();
        }

        @Override
        public void close() {
            if (device != null) {
                device.close();
            } else {
                host.close();
            }
        }

        /** The result in device memory: host rows are copied in (and freed). */
        DeviceTable onDevice(DeviceWork work) {
            if (device != null) {
                return device;
            }
            try (host) {
                return HostToDevice.upload(host.schema(), host.batches(), work);
            }
        }
    }

    /** Whether {@code node} may run out of core: joins and aggregations, which partition their inputs, and sorts (sorted runs, merged). */
    private static boolean partitioned(PlanNode node) {
        return node instanceof JoinNode || node instanceof AggregateNode || node instanceof SortNode;
    }

    /** A join, an aggregation or a sort, in or out of core. */
    private Result partitionedOperator(PlanNode node, DeviceWork work) {
        if (node instanceof SortNode sort) {
            return inOrOutOfCore(sort, null, inputs -> GpuSort.run(sort, inputs.get(0), work), inputs -> OutOfCoreSort.run(sort,
                    inputs.get(0), budgetBytes(), devices, context.allocator()), work);
        }
        if (node instanceof JoinNode join) {
            return inOrOutOfCore(join, null, inputs -> GpuJoin.run(join, inputs.get(0), inputs.get(1),
                    entries, work), inputs -> OutOfCoreJoin.run(join, inputs.get(0), inputs.get(1), budgetBytes(), entries, devices,
                    context.allocator()), work);
        }
        AggregateNode aggregate = (AggregateNode) node;
        ScanNode streamedScan = StreamedChain.scanUnder(aggregate.input(), this::onGpu);
        if (streamedScan != null && OutOfCoreAggregate.aggregatesChunks(aggregate)
                && !PartitionPlan.fitsInCore(InputEstimate.bytes(streamedScan), budgetBytes())) {
            try {
                return new Result(null, streamedAggregate(aggregate, streamedScan, work));
            } catch (OutOfCoreAggregate.ManyGroups e) {
                work.synchronize();
                context.stats(aggregate).note("aggregating the streamed chunks as they came was given up (" + e.getMessage()
                        + "): partitioned instead");
            }
        }
        return inOrOutOfCore(aggregate, OutOfCoreAggregate.unsupported(aggregate), inputs -> GpuAggregate.run(aggregate,
                inputs.get(0), work), inputs -> OutOfCoreAggregate.run(aggregate, inputs.get(0), budgetBytes(), devices,
                context.allocator()), work);
    }

    /**
     * {@code node} in core over its inputs in device memory, or out of core over them in host
     * memory ({@code unsupported} null): when its inputs, once evaluated, exceed what an in-core
     * operator may use of the budget, or when the in-core operator runs out of device memory.
     * Inputs the plan already sizes beyond that share come to host memory first ({@link #input}),
     * so an estimate that was too high (a filter kept few rows) still runs in core. EXPLAIN
     * ANALYZE notes why and how.
     */
    private Result inOrOutOfCore(PlanNode node, String unsupported, Function<List<DeviceTable>, DeviceTable> inCore,
            Function<List<HostTable>, OutOfCoreResult> outOfCore, DeviceWork work) {
        NodeStats stats = context.stats(node);
        List<Result> inputs = new ArrayList<>();
        List<DeviceTable> copiedIn = new ArrayList<>();
        try {
            long bytes = 0;
            for (PlanNode input : node.inputs()) {
                Result result = input(input);
                inputs.add(result);
                bytes += result.deviceBytes();
            }
            if (unsupported != null || PartitionPlan.fitsInCore(bytes, budgetBytes())) {
                try {
                    List<DeviceTable> onDevice = new ArrayList<>();
                    for (Result input : inputs) {
                        if (input.device() != null) {
                            onDevice.add(consumed(input.device(), work));
                        } else {
                            DeviceTable copy = HostToDevice.upload(input.host().schema(), input.host().batches(), work);
                            copiedIn.add(copy);
                            onDevice.add(consumed(copy, work));
                        }
                    }
                    DeviceTable result = inCore.apply(onDevice);
                    work.synchronize();
                    return new Result(result, null);
                } catch (GpuOutOfMemoryException e) {
                    if (unsupported != null) {
                        throw e;
                    }
                    work.synchronize();
                    stats.note("the in-core run ran out of device memory (" + e.getMessage() + "): switched to out-of-core");
                }
            } else {
                stats.note("inputs of " + OutOfCoreReport.mib(bytes) + " exceed what an in-core operator may use of the device"
                        + " budget of " + OutOfCoreReport.mib(budgetBytes()));
            }
            copiedIn.forEach(DeviceTable::close);
            copiedIn.clear();
            List<HostTable> hostInputs = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                Result input = inputs.get(i);
                if (input.host() == null) {
                    HostTable downloaded = HostTable.download(input.device(), context.allocator(), work);
                    input.device().close();
                    inputs.set(i, new Result(null, downloaded));
                }
                hostInputs.add(inputs.get(i).host());
            }
            // The out-of-core operator owns its host inputs from here on.
            inputs.clear();
            return outOfCore(node, hostInputs, outOfCore);
        } finally {
            copiedIn.forEach(DeviceTable::close);
            inputs.forEach(Result::close);
        }
    }

    /**
     * An input of a partitioned operator, where it is cheapest to have it: in host memory when the
     * plan already sizes it beyond an in-core operator's share (a scan chain, streamed or read on
     * the host); as a partitioned child left it (in host memory when it ran out of core); else in
     * device memory.
     */
    private Result input(PlanNode input) {
        long estimate = InputEstimate.bytes(input);
        if (estimate != InputEstimate.UNKNOWN && !PartitionPlan.fitsInCore(estimate, budgetBytes())) {
            return new Result(null, hostInput(input));
        }
        if (partitioned(input) && onGpu(input)) {
            context.checkCancelled();
            try {
                return measured(input, work -> partitionedOperator(input, work));
            } catch (GpuOutOfMemoryException e) {
                return new Result(null, read(input, context.runRefused(outOfMemory(input, e))));
            }
        }
        return new Result(evaluate(input), null);
    }

    private Result outOfCore(PlanNode node, List<HostTable> inputs, Function<List<HostTable>, OutOfCoreResult> operator) {
        return new Result(null, report(node, operator.apply(inputs)));
    }

    /** The rows of an out-of-core run of {@code node}, its report noted in the node's statistics. */
    private HostTable report(PlanNode node, OutOfCoreResult result) {
        noteReport(node, result.report());
        return result.rows();
    }

    private void noteReport(PlanNode node, OutOfCoreReport report) {
        NodeStats stats = context.stats(node);
        stats.note(report.note());
        stats.addBytesToDevice(report.bytesToDevice());
        stats.addBytesToHost(report.bytesToHost());
        stats.addKernelNanos(report.kernelNanos());
        TransferCounters.addBytesToDevice(report.bytesToDevice());
    }

    /**
     * An out-of-core operator's input in host memory: a scan, or a node placed elsewhere, is read
     * on the host (the scan refused by the GPU to the fallback, which notes why); any other GPU
     * node is evaluated on the device and copied out.
     */
    private HostTable hostInput(PlanNode node) {
        String placed = context.executorFor(node);
        if (placed != null && !placed.equals(NAME)) {
            return read(node, context.run(node));
        }
        if (node instanceof ScanNode) {
            return read(node, context.runRefused(new ExecutorRefused(node, SqlState.OUT_OF_MEMORY,
                    NAME + ": read on the host for an out-of-core operator", null)));
        }
        ScanNode streamedScan = StreamedChain.scanUnder(node, this::onGpu);
        if (streamedScan != null) {
            NodeStats stats = context.stats(node);
            long start = System.nanoTime();
            HostTable rows = streamed(node, streamedScan);
            stats.setExecutor(NAME);
            stats.addRows(rows.rows());
            stats.addWallNanos(System.nanoTime() - start);
            return rows;
        }
        try (DeviceWork work = new DeviceWork(device, budget); DeviceTable table = evaluate(node)) {
            return HostTable.download(table, context.allocator(), work);
        }
    }

    private HostTable read(PlanNode node, BatchStream stream) {
        try (stream) {
            return new HostTable(node.schema(), GpuScan.readAll(stream, context));
        }
    }

    /** The device bytes the query may hold on each device: its budget, at most the smallest pool. */
    private long budgetBytes() {
        long bytes = budget == null ? Long.MAX_VALUE : budget.capacity();
        for (CudaDevice d : devices) {
            bytes = Math.min(bytes, d.pool().capacity());
        }
        return bytes;
    }

    private DeviceTable setOperation(SetOpNode setOp, DeviceWork work) {
        try (DeviceTable left = evaluate(setOp.left()); DeviceTable right = evaluate(setOp.right())) {
            DeviceTable result = GpuSetOperation.run(setOp, consumed(left, work), consumed(right, work), work);
            work.synchronize();
            return result;
        }
    }

    private DeviceTable unionAll(UnionNode union, DeviceWork work) {
        List<DeviceTable> inputs = new ArrayList<>();
        try {
            for (PlanNode in : union.inputs()) {
                inputs.add(consumed(evaluate(in), work));
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
                DeviceTable result = FilterProject.run(consumed(input, work), filter.condition(), project.exprs(), project.schema(),
                        entries, work);
                NodeStats fs = context.stats(filter);
                fs.setExecutor(NAME);
                fs.addRows(result.rows());
                fs.addWallNanos(System.nanoTime() - start);
                fs.note("fused into the projection above");
                return result;
            }
        }
        try (DeviceTable input = evaluate(project.input())) {
            return FilterProject.run(consumed(input, work), null, project.exprs(), project.schema(), entries, work);
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
        try (DeviceWork work = new DeviceWork(device, budget)) {
            DeviceTable table = HostToDevice.upload(node.schema(), batches, work);
            context.stats(node).addBytesToDevice(work.bytesToDevice());
            TransferCounters.addBytesToDevice(work.bytesToDevice());
            return table;
        } finally {
            batches.forEach(Batch::close);
        }
    }

    static List<Expr> identity(Schema schema) {
        List<Expr> refs = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            refs.add(new ColumnRef(i, schema.type(i)));
        }
        return refs;
    }
}
