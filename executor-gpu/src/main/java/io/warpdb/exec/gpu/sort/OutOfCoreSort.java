package io.warpdb.exec.gpu.sort;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.partition.DeviceTally;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.StreamPipeline;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * ORDER BY over an input larger than the device budget, as an external merge sort (seed 002
 * section 3.2.1, sorted run generation): the input, in host memory, is cut into chunks that one
 * stream's share of the budget sorts in core ({@link GpuSort}, stable), dealt over the streams of
 * every device ({@link StreamPipeline}); each sorted run goes back to host memory, and the runs
 * are merged k ways on the host ({@link SortedRunMerge}). With a LIMIT each run keeps only its
 * first offset + limit rows. A chunk that does not fit after all (the estimate is rough) is sorted
 * in halves, as two runs.
 */
public final class OutOfCoreSort {
    /** Device bytes the in-core sort takes per row and key beyond the rows (key column, row ids and sort keys, twice). */
    static final int KEY_ROW_BYTES = 32;

    private final SortNode runSort;
    private final BufferAllocator allocator;
    private final AtomicInteger halved = new AtomicInteger();

    private OutOfCoreSort(SortNode runSort, BufferAllocator allocator) {
        this.runSort = runSort;
        this.allocator = allocator;
    }

    /** Sorts {@code input} (a host table of the node's input schema, taken over) within {@code budget} bytes of each device. */
    public static OutOfCoreResult run(SortNode node, HostTable input, long budget, List<CudaDevice> devices, BufferAllocator allocator) {
        try (input) {
            long streamBudget = budget / PartitionPlan.STREAMS;
            if (streamBudget < PartitionPlan.MIN_STREAM_BUDGET) {
                throw new GpuOutOfMemoryException("the sort does not fit the device and a device budget of " + budget
                        + " bytes is too small to sort runs in");
            }
            long runRows = runRows(HostTable.rowBytes(input.schema()), node.keys().size(), streamBudget);
            // Each run keeps what the whole sort may keep: a row beyond offset + limit of its run is beyond it in the merge too.
            SortNode runSort = new SortNode(node.input(), node.keys(), 0, node.limit() < 0 ? -1 : node.offset() + node.limit());
            OutOfCoreSort sort = new OutOfCoreSort(runSort, allocator);
            StreamPipeline pipeline = new StreamPipeline(devices, streamBudget, PartitionPlan.STREAMS);
            List<List<Batch>> chunks = input.chunks(runRows, allocator);
            List<HostTable> runs = new ArrayList<>();
            try {
                List<TaskRunner.Task<SortedRuns>> tasks = new ArrayList<>();
                for (List<Batch> chunk : chunks) {
                    tasks.add(work -> sort.sortedRuns(input.schema(), chunk, work));
                }
                for (SortedRuns sorted : pipeline.run(tasks)) {
                    runs.addAll(sorted.runs());
                }
                DeviceTally perDevice = pipeline.tally();
                HostTable rows = SortedRunMerge.merge(node.schema(), runs, node.keys(), node.offset(), node.limit(), allocator);
                String work = runs.size() + " sorted runs of up to " + runRows + " rows (" + sort.halved.get()
                        + " chunks sorted in halves), merged on the host";
                return new OutOfCoreResult(rows, OutOfCoreReport.of("sort", work, "runs", perDevice, pipeline));
            } finally {
                runs.forEach(HostTable::close);
                chunks.forEach(c -> c.forEach(Batch::close));
            }
        }
    }

    /**
     * Rows per sorted run such that a run, its sorted copy and the sort's key columns and row ids
     * fill half a stream's share (the other half is slack for the pool's rounding and the estimate).
     */
    static long runRows(long rowBytes, int keys, long streamBudget) {
        long perRow = 2 * rowBytes + (long) KEY_ROW_BYTES * Math.max(1, keys);
        return Math.max(1, Math.min(Integer.MAX_VALUE, streamBudget / 2 / perRow));
    }

    /** Sorted runs in host memory, owned. */
    private record SortedRuns(List<HostTable> runs) implements AutoCloseable {
        @Override
        public void close() {
            runs.forEach(HostTable::close);
        }
    }

    /** The rows of {@code chunk} (batches owned by the caller) sorted on the device: one run, or two halves' when one does not fit. */
    private SortedRuns sortedRuns(Schema schema, List<Batch> chunk, DeviceWork work) {
        long rows = chunk.stream().mapToLong(Batch::rowCount).sum();
        try {
            return new SortedRuns(List.of(sortedRun(schema, chunk, work)));
        } catch (GpuOutOfMemoryException e) {
            work.synchronize();
            if (rows <= 1) {
                throw e;
            }
        }
        halved.incrementAndGet();
        // Not closed: the chunk's batches stay the caller's; the halves are slices of them.
        HostTable whole = new HostTable(schema, chunk);
        List<List<Batch>> halves = whole.chunks((rows + 1) / 2, allocator);
        List<HostTable> runs = new ArrayList<>();
        try {
            for (List<Batch> half : halves) {
                runs.addAll(sortedRuns(schema, half, work).runs());
            }
            return new SortedRuns(runs);
        } catch (RuntimeException e) {
            runs.forEach(HostTable::close);
            throw e;
        } finally {
            halves.forEach(h -> h.forEach(Batch::close));
        }
    }

    private HostTable sortedRun(Schema schema, List<Batch> chunk, DeviceWork work) {
        try (DeviceTable rows = HostToDevice.upload(schema, chunk, work);
                DeviceTable sorted = GpuSort.run(runSort, rows, work)) {
            return HostTable.download(sorted, allocator, work);
        }
    }
}
