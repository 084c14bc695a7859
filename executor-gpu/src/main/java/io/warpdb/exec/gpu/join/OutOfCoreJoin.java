package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
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
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The out-of-core hybrid join of seed 002 section 3.3, for equi-joins whose inputs exceed the
 * device budget: both inputs, in host memory, are radix-partitioned chunk by chunk on the device
 * by the hash of their keys ({@link ChunkPartitioner}, on the 3-stream {@link StreamPipeline});
 * then each pair of partitions with the same id is joined in core by {@link GpuJoin} (any kind,
 * residual included: rows that can match share a partition, and every row sits in exactly one,
 * so the outer, semi and anti rows of a partition pair are those of the whole join), and the
 * results are concatenated. A partition pair that still does not fit its stream's share is
 * partitioned again on the next bits of the hash; one whose rows all share a hash (a hot key) is
 * joined in blocks. A join without equality keys, which no hash can partition, is joined in
 * blocks as a whole ({@link BlockNestedLoopJoin}, the left blocks dealt over the devices), or,
 * when its condition bounds a left column by a right one, by the global sort-merge join
 * ({@link GlobalSortMergeJoin}: both sides sorted, only blocks whose ranges can match joined).
 */
public final class OutOfCoreJoin {
    private final JoinNode node;
    private final BufferAllocator allocator;
    private final long streamBudget;
    private final AtomicInteger skewSplits = new AtomicInteger();
    private final AtomicInteger hotKeyPartitions = new AtomicInteger();
    /** Joins rows that hashing cannot separate: a hot key's, or all rows of a join without keys. */
    private final BlockNestedLoopJoin blocks;

    private OutOfCoreJoin(JoinNode node, EntryEvaluator entries, BufferAllocator allocator, long streamBudget) {
        this.node = node;
        this.allocator = allocator;
        this.streamBudget = streamBudget;
        this.blocks = new BlockNestedLoopJoin(node, entries, allocator, streamBudget);
    }

    /**
     * Joins {@code left} with {@code right} (host tables of the node's input schemas, taken over
     * and closed here) within {@code budget} bytes of device memory.
     */
    public static OutOfCoreResult run(JoinNode node, HostTable left, HostTable right, long budget, EntryEvaluator entries,
            List<CudaDevice> devices, BufferAllocator allocator) {
        try (left; right) {
            if (budget / PartitionPlan.STREAMS < PartitionPlan.MIN_STREAM_BUDGET) {
                throw new GpuOutOfMemoryException("a device budget of " + budget + " bytes is too small to partition in");
            }
            if (node.leftKeys().isEmpty()) {
                RangeBounds bounds = RangeBounds.of(node);
                PartitionPlan.Blocks size = GlobalSortMergeJoin.blockRows(node, left.rows(), right.rows(), budget / PartitionPlan.STREAMS);
                // Sorting pays when neither side fits one block: then the blocks' ranges spare the pairs that cannot match.
                if (bounds != null && left.rows() > size.leftRows() && right.rows() > size.rightRows()) {
                    return GlobalSortMergeJoin.run(node, bounds, left, right, budget, entries, devices, allocator);
                }
                return inBlocks(node, left, right, budget / PartitionPlan.STREAMS, entries, devices, allocator);
            }
            PartitionPlan plan = PartitionPlan.of(left.deviceBytes(), left.rows(), right.deviceBytes(), right.rows(), budget);
            StreamPipeline pipeline = new StreamPipeline(devices, plan.streamBudget(), PartitionPlan.STREAMS);
            OutOfCoreJoin join = new OutOfCoreJoin(node, entries, allocator, plan.streamBudget());
            List<HostTable> leftParts = new ArrayList<>();
            List<HostTable> rightParts = new ArrayList<>();
            try {
                try (HostPartitions l = ChunkPartitioner.partition(left, node.leftKeys(), NullKeys.SPREAD, 0, plan.bits(), plan.leftChunkRows(),
                                pipeline, allocator);
                        HostPartitions r = ChunkPartitioner.partition(right, node.rightKeys(), NullKeys.SPREAD, 0, plan.bits(), plan.rightChunkRows(),
                                pipeline, allocator)) {
                    left.close();
                    right.close();
                    for (int p = 0; p < plan.partitions(); p++) {
                        leftParts.add(l.take(p));
                        rightParts.add(r.take(p));
                    }
                }
                List<TaskRunner.Task<HostTable>> tasks = new ArrayList<>();
                for (int p = 0; p < plan.partitions(); p++) {
                    HostTable l = leftParts.get(p);
                    HostTable r = rightParts.get(p);
                    tasks.add(work -> join.pair(l, r, plan.bits(), work));
                }
                DeviceTally partitioned = pipeline.tally();
                HostTable rows = HostTable.concat(node.schema(), pipeline.run(tasks));
                return new OutOfCoreResult(rows, OutOfCoreReport.partitioned("hybrid join", plan.partitions(), plan.passes(),
                        join.skewSplits.get(), join.hotKeyPartitions.get() + " joined in blocks (hot keys)", pipeline, pipeline.tally().since(partitioned)));
            } finally {
                // Closing twice is harmless: a task closes its pair once joined.
                leftParts.forEach(HostTable::close);
                rightParts.forEach(HostTable::close);
            }
        }
    }

    /**
     * A join without equality keys: both inputs cut into blocks; on several devices the right
     * blocks go round a ring of them ({@link BlockRing}), else the left blocks are dealt over the
     * streams of the device.
     */
    private static OutOfCoreResult inBlocks(JoinNode node, HostTable left, HostTable right, long streamBudget, EntryEvaluator entries,
            List<CudaDevice> devices, BufferAllocator allocator) {
        BlockNestedLoopJoin join = new BlockNestedLoopJoin(node, entries, allocator, streamBudget);
        StreamPipeline pipeline = new StreamPipeline(devices, streamBudget, PartitionPlan.STREAMS);
        PartitionPlan.Blocks size = join.blockRows(left.rows(), right.rows());
        long leftBlocks = PartitionPlan.ceilDiv(left.rows(), size.leftRows());
        long rightBlocks = PartitionPlan.ceilDiv(right.rows(), size.rightRows());
        String work = leftBlocks + " x " + rightBlocks + " blocks of up to " + size.leftRows() + " x " + size.rightRows() + " rows";
        if (devices.size() > 1) {
            BlockRing ring = new BlockRing(devices, streamBudget * PartitionPlan.STREAMS);
            try {
                HostTable rows = join.runInRing(left, right, ring, pipeline);
                work += ", the right blocks passed round a ring of " + devices.size() + " devices ("
                        + OutOfCoreReport.mib(ring.bytesBetweenDevices()) + " peer to peer)";
                return new OutOfCoreResult(rows, OutOfCoreReport.of("block nested-loop join", work, "blocks", ring.tally(), pipeline)
                        .adding(ring.bytesToDevice(), ring.bytesToHost(), ring.kernelNanos()));
            } catch (GpuOutOfMemoryException e) {
                work += ", the ring out of device memory (" + e.getMessage() + "), its blocks dealt over the streams instead";
            }
        }
        HostTable rows = join.run(left, right, pipeline);
        return new OutOfCoreResult(rows, OutOfCoreReport.of("block nested-loop join", work, "blocks", pipeline.tally(), pipeline));
    }

    /**
     * The join of one partition pair (taken over): in core when it fits; else split on the next
     * bits from {@code shift} of the hash, or joined in blocks when the hash cannot split it.
     */
    private HostTable pair(HostTable left, HostTable right, int shift, DeviceWork work) {
        try (left; right) {
            if (producesNothing(left.rows(), right.rows())) {
                return empty();
            }
            if (PartitionPlan.fitsInCore(left.deviceBytes() + right.deviceBytes(), streamBudget)) {
                try {
                    return blocks.inCore(node, left, right, work);
                } catch (GpuOutOfMemoryException e) {
                    work.synchronize();  // the output, or a skewed build side, did not fit: split further
                }
            }
            if (shift + PartitionPlan.DIGIT_BITS > PartitionPlan.HASH_BITS) {
                hotKeyPartitions.incrementAndGet();
                return blocks.run(left, right, TaskRunner.on(work));
            }
            skewSplits.incrementAndGet();
            int bits = PartitionPlan.DIGIT_BITS;
            TaskRunner here = TaskRunner.on(work);
            try (HostPartitions l = ChunkPartitioner.partition(left, node.leftKeys(), NullKeys.SPREAD, shift, bits,
                            PartitionPlan.chunkRows(left.deviceBytes(), left.rows(), streamBudget), here, allocator);
                    HostPartitions r = ChunkPartitioner.partition(right, node.rightKeys(), NullKeys.SPREAD, shift, bits,
                            PartitionPlan.chunkRows(right.deviceBytes(), right.rows(), streamBudget), here, allocator)) {
                List<HostTable> parts = new ArrayList<>();
                try {
                    for (int q = 0; q < l.partitions(); q++) {
                        boolean unsplit = l.rows(q) == left.rows() && r.rows(q) == right.rows();
                        HostTable lq = l.take(q);
                        HostTable rq = r.take(q);
                        if (unsplit) {
                            // These bits did not split the pair: its rows hash alike (a hot key) or nearly so; blocks join any rows.
                            hotKeyPartitions.incrementAndGet();
                            try (lq; rq) {
                                parts.add(blocks.run(lq, rq, TaskRunner.on(work)));
                            }
                        } else {
                            parts.add(pair(lq, rq, shift + bits, work));
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

    /** Whether the join of a pair with these row counts is empty whatever the rows. */
    private boolean producesNothing(long leftRows, long rightRows) {
        return switch (node.kind()) {
            case INNER, SEMI -> leftRows == 0 || rightRows == 0;
            case LEFT, ANTI -> leftRows == 0;
            case RIGHT -> rightRows == 0;
            case FULL -> leftRows == 0 && rightRows == 0;
        };
    }

    private HostTable empty() {
        return new HostTable(node.schema(), List.of());
    }
}
