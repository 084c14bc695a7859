package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggregateNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.partition.ChunkPartitioner;
import io.warpdb.exec.gpu.partition.DeviceTally;
import io.warpdb.exec.gpu.partition.HostPartitions;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.RadixPartitioner.NullKeys;
import io.warpdb.exec.gpu.partition.StreamPipeline;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.partition.UsedDictionaryEntries;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * GROUP BY over an input larger than the device budget (partitioned aggregation, seed 002's
 * partitioning applied to grouping): the input, in host memory, is radix-partitioned on the
 * device by the hash of its group keys, as the out-of-core join partitions its inputs, so all
 * rows of a group land in one partition; each partition is aggregated in core by
 * {@link GpuAggregate} and the groups are concatenated. A partition that does not fit is split
 * on further hash bits; rows that no bits split (a group larger than a stream's share, as a
 * rule) and an aggregation without group keys are aggregated in chunks whose partial states
 * merge ({@link ChunkedAggregation}). Only DISTINCT aggregates (but MIN and MAX) and variances
 * need a whole group in core, and are refused (the CPU runs them) when it does not fit.
 */
public final class OutOfCoreAggregate {
    private final AggregateNode node;
    private final BufferAllocator allocator;
    private final long streamBudget;
    private final AtomicInteger splits = new AtomicInteger();
    /** Partitions no bits split that were aggregated in chunks. */
    private final AtomicInteger chunkedGroups = new AtomicInteger();

    private OutOfCoreAggregate(AggregateNode node, BufferAllocator allocator, long streamBudget) {
        this.node = node;
        this.allocator = allocator;
        this.streamBudget = streamBudget;
    }

    /**
     * Whether {@code node} may aggregate the chunks of a streamed input as they come, their
     * partial states merged once all are done: its aggregates merge, and no MIN or MAX reads a
     * string (whose chunks' dictionaries, and so ranks, differ).
     */
    public static boolean aggregatesChunks(AggregateNode node) {
        return ChunkedAggregation.mergeable(node) && ChunkedAggregation.stringMinMaxArguments(node).isEmpty();
    }

    /**
     * The partial aggregate of one chunk's rows of a streamed input ({@link #aggregatesChunks});
     * {@link ManyGroups} when the chunk has more groups than a quarter of its rows: merging
     * partials that large saves little, partitioning does better.
     */
    public static PartialAggregate partialOfChunk(AggregateNode node, DeviceTable rows, BufferAllocator allocator, DeviceWork work) {
        PartialAggregate partial = GpuAggregate.partial(node, rows, allocator, work);
        if (!node.groupKeys().isEmpty() && (long) partial.groups() * 4 > Math.max(64, rows.rows())) {
            partial.close();
            throw new ManyGroups(partial.groups(), rows.rows());
        }
        return partial;
    }

    /** The groups of the partial aggregates of a streamed input's chunks, merged and finished. */
    public static HostTable mergePartials(AggregateNode node, List<PartialAggregate> partials, BufferAllocator allocator,
            DeviceWork work) {
        return ChunkedAggregation.merge(node, partials, c -> {
            throw new IllegalStateException("string MIN/MAX do not aggregate by chunks");
        }, allocator, work);
    }

    /** A chunk of a streamed input with too many groups to aggregate by chunks. */
    public static final class ManyGroups extends RuntimeException {
        ManyGroups(int groups, int rows) {
            super(groups + " groups in a chunk of " + rows + " rows", null, false, false);
        }
    }

    /** Why {@code node} cannot run out of core, or null when it can. */
    public static String unsupported(AggregateNode node) {
        return node.groupKeys().isEmpty() && !ChunkedAggregation.mergeable(node)
                ? "DISTINCT, APPROX_COUNT_DISTINCT and variance aggregates without group keys need all rows in core" : null;
    }

    /** Aggregates {@code input} (a host table of the node's input schema, taken over) within {@code budget} bytes of device memory. */
    public static OutOfCoreResult run(AggregateNode node, HostTable input, long budget, List<CudaDevice> devices,
            BufferAllocator allocator) {
        try (input) {
            String why = unsupported(node);
            if (why != null || budget / PartitionPlan.STREAMS < PartitionPlan.MIN_STREAM_BUDGET) {
                throw new GpuOutOfMemoryException("the aggregation does not fit the device and "
                        + (why != null ? why : "a device budget of " + budget + " bytes is too small to partition in"));
            }
            PartitionPlan plan = PartitionPlan.of(input.deviceBytes(), input.rows(), 0, 0, budget);
            StreamPipeline pipeline = new StreamPipeline(devices, plan.streamBudget(), PartitionPlan.STREAMS);
            if (node.groupKeys().isEmpty()) {
                long chunkRows = PartitionPlan.inCoreRows(input.deviceBytes(), input.rows(), plan.streamBudget());
                HostTable rows = ChunkedAggregation.run(node, input, chunkRows, pipeline, allocator);
                long chunks = PartitionPlan.ceilDiv(input.rows(), chunkRows);
                return new OutOfCoreResult(rows, OutOfCoreReport.of("chunked aggregation", chunks + " chunks of up to " + chunkRows
                        + " rows, partial states merged", "chunks", pipeline.tally(), pipeline));
            }
            OutOfCoreAggregate aggregate = new OutOfCoreAggregate(node, allocator, plan.streamBudget());
            List<HostTable> parts = new ArrayList<>();
            try {
                try (HostPartitions partitions = ChunkPartitioner.partition(input, node.groupKeys(), NullKeys.GROUPED, 0, plan.bits(),
                        plan.leftChunkRows(), pipeline, allocator)) {
                    input.close();
                    for (int p = 0; p < plan.partitions(); p++) {
                        parts.add(partitions.take(p));
                    }
                }
                List<TaskRunner.Task<HostTable>> tasks = new ArrayList<>();
                for (HostTable part : parts) {
                    tasks.add(work -> aggregate.partition(part, plan.bits(), work));
                }
                DeviceTally partitioned = pipeline.tally();
                HostTable rows = HostTable.concat(node.schema(), pipeline.run(tasks));
                return new OutOfCoreResult(rows, OutOfCoreReport.partitioned("partitioned aggregation", plan.partitions(),
                        plan.passes(), aggregate.splits.get(), aggregate.chunkedGroups.get() + " aggregated in chunks (groups beyond a stream's share)",
                        pipeline, pipeline.tally().since(partitioned)));
            } finally {
                // Closing twice is harmless: a task closes its partition once aggregated.
                parts.forEach(HostTable::close);
            }
        }
    }

    /**
     * The groups of one partition (taken over): in core when its estimate fits, else split on the
     * next bits from {@code shift}; rows that no bits split (one large group, as a rule) are tried
     * in core anyway, since the estimate is rough, and refused when they do not fit.
     */
    private HostTable partition(HostTable rows, int shift, DeviceWork work) {
        try (rows) {
            if (rows.rows() == 0) {
                return new HostTable(node.schema(), List.of());
            }
            if (PartitionPlan.fitsInCore(rows.deviceBytes(), streamBudget)) {
                try {
                    return inCore(rows, work);
                } catch (GpuOutOfMemoryException e) {
                    work.synchronize();  // a hash table or sort larger than the estimate: split further
                }
            }
            int bits = PartitionPlan.DIGIT_BITS;
            if (shift + bits > PartitionPlan.HASH_BITS) {
                return inCoreOrChunked(rows, work);
            }
            splits.incrementAndGet();
            try (HostPartitions split = ChunkPartitioner.partition(rows, node.groupKeys(), NullKeys.GROUPED, shift, bits,
                    PartitionPlan.chunkRows(rows.deviceBytes(), rows.rows(), streamBudget), TaskRunner.on(work), allocator)) {
                List<HostTable> parts = new ArrayList<>();
                try {
                    for (int q = 0; q < split.partitions(); q++) {
                        boolean unsplit = split.rows(q) == rows.rows();
                        try (HostTable part = split.take(q)) {
                            parts.add(unsplit ? inCoreOrChunked(part, work) : partition(part, shift + bits, work));
                        }
                    }
                    return HostTable.concat(node.schema(), parts);
                } catch (RuntimeException e) {
                    parts.forEach(HostTable::close);
                    throw e;
                }
            }
        }
    }

    private HostTable inCore(HostTable rows, DeviceWork work) {
        try (HostTable recoded = UsedDictionaryEntries.of(rows, allocator);
                DeviceTable input = HostToDevice.upload(recoded.schema(), recoded.batches(), work);
                DeviceTable groups = GpuAggregate.run(node, input, work)) {
            return HostTable.download(groups, allocator, work);
        }
    }

    /** Rows that no hash bits split: in core when they fit, else in chunks whose states merge. */
    private HostTable inCoreOrChunked(HostTable rows, DeviceWork work) {
        try {
            return inCore(rows, work);
        } catch (GpuOutOfMemoryException e) {
            work.synchronize();
            if (!ChunkedAggregation.mergeable(node)) {
                throw new GpuOutOfMemoryException("a group of up to " + rows.rows() + " rows (or groups whose keys hash alike) does"
                        + " not fit a device budget share of " + streamBudget + " bytes, and DISTINCT, APPROX_COUNT_DISTINCT and variance aggregates do not merge"
                        + " across chunks (" + e.getMessage() + ")");
            }
            chunkedGroups.incrementAndGet();
            return ChunkedAggregation.run(node, rows, PartitionPlan.inCoreRows(rows.deviceBytes(), rows.rows(), streamBudget),
                    TaskRunner.on(work), allocator);
        }
    }
}
