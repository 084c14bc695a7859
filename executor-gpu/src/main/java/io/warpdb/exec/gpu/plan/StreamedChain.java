package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.data.encoded.EncodedSegment;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.decode.DeviceDecoder;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.StreamPipeline;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.select.FilterProject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A scan with the filters and projections above it, streamed chunk by chunk through the 3-stream
 * pipeline of seed 002 section 3.2.4 when its table exceeds what the device budget lets an
 * in-core operator hold. A chunk is a run of the table's stored segments, copied to the device
 * encoded and decoded there (or, for sources without stored segments, a run of rows read on the
 * host and copied in); the chunk is filtered and projected on the device and its rows copied back
 * to host memory. Each stream of every device takes chunks in turn, so that one chunk's copy in,
 * another's kernels and a third's copy out overlap. The rows feed an out-of-core operator, or are
 * copied in again when they fit.
 */
final class StreamedChain {
    private final PlanNode top;
    private final ScanNode scan;
    private final EntryEvaluator entries;

    private StreamedChain(PlanNode top, ScanNode scan, EntryEvaluator entries) {
        this.top = top;
        this.scan = scan;
        this.entries = entries;
    }

    /**
     * The scan under {@code node} when {@code node} is a filter or projection over a chain of
     * filters and projections down to a scan, every node of it on the GPU ({@code onGpu}); else
     * null. A bare scan is no chain: an operator that wants its rows in host memory reads them
     * there, with no round trip through the device.
     */
    static ScanNode scanUnder(PlanNode node, Predicate<PlanNode> onGpu) {
        if (!(node instanceof FilterNode) && !(node instanceof ProjectNode)) {
            return null;
        }
        PlanNode at = node;
        while (at instanceof FilterNode || at instanceof ProjectNode) {
            if (!onGpu.test(at)) {
                return null;
            }
            at = at.inputs().get(0);
        }
        return at instanceof ScanNode s && onGpu.test(s) ? s : null;
    }

    /** What a chunk of the chain's rows becomes: host rows, or e.g. a partial aggregate of them. */
    @FunctionalInterface
    interface ChunkOutput<T extends AutoCloseable> {
        /** The output of one chunk's rows (which the caller closes). */
        T of(DeviceTable rows, DeviceWork work);
    }

    /** The outputs of every chunk (owned by the caller) and the pipeline's report. */
    record Outputs<T extends AutoCloseable>(List<T> outputs, OutOfCoreReport report) {
    }

    /**
     * The rows of the chain {@code top} over {@code scan} in host memory, its chunks dealt over
     * the streams of {@code devices} within {@code budget} bytes of device memory each.
     */
    static OutOfCoreResult run(PlanNode top, ScanNode scan, EntryEvaluator entries, List<CudaDevice> devices, long budget,
            BufferAllocator allocator, Supplier<List<Batch>> hostRows) {
        Outputs<HostTable> chunks = run(top, scan, entries, devices, budget, allocator, hostRows,
                (rows, work) -> HostTable.download(rows, allocator, work));
        return new OutOfCoreResult(HostTable.concat(top.schema(), chunks.outputs()), chunks.report());
    }

    /** As {@link #run(PlanNode, ScanNode, EntryEvaluator, List, long, BufferAllocator, Supplier)}, each chunk's rows made into {@code output}. */
    static <T extends AutoCloseable> Outputs<T> run(PlanNode top, ScanNode scan, EntryEvaluator entries, List<CudaDevice> devices,
            long budget, BufferAllocator allocator, Supplier<List<Batch>> hostRows, ChunkOutput<T> output) {
        long streamBudget = budget / PartitionPlan.STREAMS;
        StreamPipeline pipeline = new StreamPipeline(devices, streamBudget, PartitionPlan.STREAMS);
        StreamedChain chain = new StreamedChain(top, scan, entries);
        long chunkRows = PartitionPlan.inCoreRows(HostTable.rowBytes(scan.schema()), 1, streamBudget);
        Optional<List<EncodedSegment>> stored = scan.table().encodedSegments(scan.columns(), scan.predicates());
        List<T> outputs;
        String work;
        if (stored.isPresent()) {
            List<List<EncodedSegment>> chunks = segmentRuns(stored.get(), chunkRows);
            List<TaskRunner.Task<T>> tasks = new ArrayList<>();
            for (List<EncodedSegment> chunk : chunks) {
                tasks.add(w -> chain.overChain(chain.decoded(chunk, w), output, w));
            }
            outputs = pipeline.run(tasks);
            work = chunks.size() + " chunks of stored segments (" + stored.get().size() + " segments), decoded on the device";
        } else {
            try (HostTable read = new HostTable(scan.schema(), hostRows.get())) {
                List<List<Batch>> chunks = read.chunks(chunkRows, allocator);
                try {
                    List<TaskRunner.Task<T>> tasks = new ArrayList<>();
                    for (List<Batch> chunk : chunks) {
                        tasks.add(w -> chain.overChain(HostToDevice.upload(scan.schema(), chunk, w), output, w));
                    }
                    outputs = pipeline.run(tasks);
                } finally {
                    chunks.forEach(c -> c.forEach(Batch::close));
                }
                work = chunks.size() + " chunks of up to " + chunkRows + " rows read on the host";
            }
        }
        return new Outputs<>(outputs, OutOfCoreReport.of("scan pipeline", work, "chunks", pipeline.tally(), pipeline));
    }

    /** Consecutive segments in runs of about {@code chunkRows} rows (a larger segment is a run of its own). */
    static List<List<EncodedSegment>> segmentRuns(List<EncodedSegment> segments, long chunkRows) {
        List<List<EncodedSegment>> runs = new ArrayList<>();
        List<EncodedSegment> run = new ArrayList<>();
        long rows = 0;
        for (EncodedSegment s : segments) {
            if (!run.isEmpty() && rows + s.rowCount() > chunkRows) {
                runs.add(run);
                run = new ArrayList<>();
                rows = 0;
            }
            run.add(s);
            rows += s.rowCount();
        }
        if (!run.isEmpty()) {
            runs.add(run);
        }
        return runs;
    }

    /** The scan's columns of one run of segments, decoded on the device. */
    private DeviceTable decoded(List<EncodedSegment> chunk, DeviceWork work) {
        List<DeviceColumn> columns = new ArrayList<>();
        try {
            for (int m = 0; m < scan.columns().size(); m++) {
                int column = m;
                columns.add(DeviceDecoder.decode(scan.schema().type(m), chunk.stream().map(s -> s.columns().get(column)).toList(), work));
            }
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(scan.schema(), chunk.stream().mapToInt(EncodedSegment::rowCount).sum(), columns);
    }

    /** The output of the chain's rows over one chunk of the scan (taken over). */
    private <T extends AutoCloseable> T overChain(DeviceTable scanned, ChunkOutput<T> output, DeviceWork work) {
        try (DeviceTable rows = apply(top, scanned, work)) {
            return output.of(rows, work);
        }
    }

    /** {@code node}'s rows over the scan's rows {@code scanned} (taken over: closed or returned). */
    private DeviceTable apply(PlanNode node, DeviceTable scanned, DeviceWork work) {
        if (node == scan) {
            return scanned;
        }
        if (node instanceof ProjectNode project && project.input() instanceof FilterNode filter) {
            // Fused, as the in-core runner does: one pass evaluates the predicate and the expressions.
            try (DeviceTable input = apply(filter.input(), scanned, work)) {
                return FilterProject.run(input, filter.condition(), project.exprs(), project.schema(), entries, work);
            }
        }
        try (DeviceTable input = apply(node.inputs().get(0), scanned, work)) {
            if (node instanceof FilterNode filter) {
                return FilterProject.run(input, filter.condition(), GpuPlanRunner.identity(filter.schema()), filter.schema(), entries,
                        work);
            }
            ProjectNode project = (ProjectNode) node;
            return FilterProject.run(input, null, project.exprs(), project.schema(), entries, work);
        }
    }
}
