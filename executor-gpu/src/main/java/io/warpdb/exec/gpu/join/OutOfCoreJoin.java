package io.warpdb.exec.gpu.join;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.partition.ChunkPartitioner;
import io.warpdb.exec.gpu.partition.HostPartitions;
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
 * The out-of-core hybrid join of seed 002 section 3.3, for equi-joins whose inputs exceed the
 * device budget: both inputs, in host memory, are radix-partitioned chunk by chunk on the device
 * by the hash of their keys ({@link ChunkPartitioner}, on the 3-stream {@link StreamPipeline});
 * then each pair of partitions with the same id is joined in core by {@link GpuJoin} (any kind,
 * residual included: rows that can match share a partition, and every row sits in exactly one,
 * so the outer, semi and anti rows of a partition pair are those of the whole join), and the
 * results are concatenated. A partition pair that still does not fit its stream's share is
 * partitioned again on the next bits of the hash; one whose rows all share a hash (a hot key) is
 * joined in blocks.
 */
public final class OutOfCoreJoin {
    private final JoinNode node;
    private final EntryEvaluator entries;
    private final BufferAllocator allocator;
    private final long streamBudget;
    private final AtomicInteger skewSplits = new AtomicInteger();
    private final AtomicInteger hotKeyPartitions = new AtomicInteger();

    private OutOfCoreJoin(JoinNode node, EntryEvaluator entries, BufferAllocator allocator, long streamBudget) {
        this.node = node;
        this.entries = entries;
        this.allocator = allocator;
        this.streamBudget = streamBudget;
    }

    /** Why {@code node} cannot run out of core, or null when it can. */
    public static String unsupported(JoinNode node) {
        return node.leftKeys().isEmpty() ? "a join without equality keys cannot be partitioned" : null;
    }

    /**
     * Joins {@code left} with {@code right} (host tables of the node's input schemas, taken over
     * and closed here) within {@code budget} bytes of device memory.
     */
    public static OutOfCoreResult run(JoinNode node, HostTable left, HostTable right, long budget, EntryEvaluator entries,
            CudaDevice device, BufferAllocator allocator) {
        try (left; right) {
            String why = unsupported(node);
            if (why != null) {
                throw new GpuOutOfMemoryException("the join does not fit the device and " + why);
            }
            if (budget / PartitionPlan.STREAMS < PartitionPlan.MIN_STREAM_BUDGET) {
                throw new GpuOutOfMemoryException("a device budget of " + budget + " bytes is too small to partition in");
            }
            PartitionPlan plan = PartitionPlan.of(left.deviceBytes(), left.rows(), right.deviceBytes(), right.rows(), budget);
            StreamPipeline pipeline = new StreamPipeline(device, plan.streamBudget(), PartitionPlan.STREAMS);
            OutOfCoreJoin join = new OutOfCoreJoin(node, entries, allocator, plan.streamBudget());
            List<HostTable> leftParts = new ArrayList<>();
            List<HostTable> rightParts = new ArrayList<>();
            try {
                try (HostPartitions l = ChunkPartitioner.partition(left, node.leftKeys(), 0, plan.bits(), plan.leftChunkRows(),
                                pipeline, allocator);
                        HostPartitions r = ChunkPartitioner.partition(right, node.rightKeys(), 0, plan.bits(), plan.rightChunkRows(),
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
                HostTable rows = HostTable.concat(node.schema(), pipeline.run(tasks));
                return new OutOfCoreResult(rows, new OutOfCoreReport("hybrid join", plan.partitions(), plan.passes(), join.skewSplits.get(),
                        join.hotKeyPartitions.get(), plan.streamBudget(), pipeline.bytesToDevice(), pipeline.bytesToHost(),
                        pipeline.kernelNanos()));
            } finally {
                // Closing twice is harmless: a task closes its pair once joined.
                leftParts.forEach(HostTable::close);
                rightParts.forEach(HostTable::close);
            }
        }
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
                    return inCore(node, left, right, work);
                } catch (GpuOutOfMemoryException e) {
                    work.synchronize();  // the output, or a skewed build side, did not fit: split further
                }
            }
            if (shift + PartitionPlan.DIGIT_BITS > PartitionPlan.HASH_BITS) {
                hotKeyPartitions.incrementAndGet();
                return inBlocks(left, right, work);
            }
            skewSplits.incrementAndGet();
            int bits = PartitionPlan.DIGIT_BITS;
            TaskRunner here = TaskRunner.on(work);
            try (HostPartitions l = ChunkPartitioner.partition(left, node.leftKeys(), shift, bits,
                            PartitionPlan.chunkRows(left.deviceBytes(), left.rows(), streamBudget), here, allocator);
                    HostPartitions r = ChunkPartitioner.partition(right, node.rightKeys(), shift, bits,
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
                                parts.add(inBlocks(lq, rq, work));
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

    /** {@code join} of two host tables on the device (inputs stay owned by the caller). */
    private HostTable inCore(JoinNode join, HostTable left, HostTable right, DeviceWork work) {
        try (DeviceTable l = HostToDevice.upload(left.schema(), left.batches(), work);
                DeviceTable r = HostToDevice.upload(right.schema(), right.batches(), work);
                DeviceTable out = GpuJoin.run(join, l, r, entries, work)) {
            return HostTable.download(out, allocator, work);
        }
    }

    /**
     * A pair whose keys all hash alike (one hot key, as a rule), joined block by block: inner
     * pairs from every pair of blocks; rows no block matched (chains of ANTI joins over the other
     * side's blocks) padded with NULLs by the node's own outer join against an empty side; SEMI
     * rows taken from what earlier blocks left unmatched, so each is output once.
     */
    private HostTable inBlocks(HostTable left, HostTable right, DeviceWork work) {
        JoinKind kind = node.kind();
        boolean rightOuter = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
        if (rightOuter && node.residual() != null) {
            throw new GpuOutOfMemoryException("a hot key of a " + kind + " join with a condition beyond its keys does not fit the"
                    + " device");
        }
        PartitionPlan.Blocks size = PartitionPlan.hotKeyBlocks(left.rows(), right.rows(), HostTable.rowBytes(left.schema()),
                HostTable.rowBytes(right.schema()), HostTable.rowBytes(node.schema()), streamBudget);
        List<HostTable> out = new ArrayList<>();
        List<HostTable> leftBlocks = blocks(left, size.leftRows());
        List<HostTable> rightBlocks = blocks(right, size.rightRows());
        try {
            JoinNode inner = variant(JoinKind.INNER, node.schema());
            JoinNode anti = variant(JoinKind.ANTI, node.left().schema());
            JoinNode semi = variant(JoinKind.SEMI, node.left().schema());
            for (HostTable l : leftBlocks) {
                HostTable unmatched = l;
                for (HostTable r : rightBlocks) {
                    switch (kind) {
                        case INNER, LEFT, RIGHT, FULL -> out.add(inCore(inner, l, r, work));
                        case SEMI -> out.add(inCore(semi, unmatched, r, work));
                        case ANTI -> { }
                    }
                    if (kind != JoinKind.INNER && kind != JoinKind.RIGHT) {
                        HostTable next = inCore(anti, unmatched, r, work);
                        if (unmatched != l) {
                            unmatched.close();
                        }
                        unmatched = next;
                    }
                }
                if (kind == JoinKind.ANTI) {
                    out.add(unmatched == l ? copy(l) : unmatched);
                } else if (kind == JoinKind.LEFT || kind == JoinKind.FULL) {
                    try (HostTable padded = unmatched) {
                        out.add(inCore(node, padded, emptyOf(right), work));
                    }
                } else if (unmatched != l) {
                    unmatched.close();
                }
            }
            if (rightOuter) {
                JoinNode rightAnti = new JoinNode(node.right(), node.left(), JoinKind.ANTI, node.rightKeys(), node.leftKeys(), null,
                        node.right().schema());
                for (HostTable r : rightBlocks) {
                    HostTable unmatched = copy(r);
                    for (HostTable l : leftBlocks) {
                        try (HostTable before = unmatched) {
                            unmatched = inCore(rightAnti, before, l, work);
                        }
                    }
                    try (HostTable padded = unmatched) {
                        out.add(inCore(node, emptyOf(left), padded, work));
                    }
                }
            }
            return HostTable.concat(node.schema(), out);
        } catch (RuntimeException e) {
            out.forEach(HostTable::close);
            throw e;
        } finally {
            leftBlocks.forEach(HostTable::close);
            rightBlocks.forEach(HostTable::close);
        }
    }

    /** The node's join of another kind, with the given output schema. */
    private JoinNode variant(JoinKind kind, Schema schema) {
        return new JoinNode(node.left(), node.right(), kind, node.leftKeys(), node.rightKeys(), node.residual(), schema);
    }

    private List<HostTable> blocks(HostTable table, long rows) {
        List<HostTable> blocks = new ArrayList<>();
        for (List<Batch> chunk : table.chunks(rows, allocator)) {
            blocks.add(new HostTable(table.schema(), chunk));
        }
        return blocks;
    }

    /** A table sharing {@code table}'s buffers, owned separately. */
    private HostTable copy(HostTable table) {
        List<Batch> batches = new ArrayList<>();
        for (Batch b : table.batches()) {
            batches.add(Batches.slice(b, 0, b.rowCount(), allocator));
        }
        return new HostTable(table.schema(), batches);
    }

    private static HostTable emptyOf(HostTable table) {
        return new HostTable(table.schema(), List.of());
    }

    private HostTable empty() {
        return new HostTable(node.schema(), List.of());
    }
}
