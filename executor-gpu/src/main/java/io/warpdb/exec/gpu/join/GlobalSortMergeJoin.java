package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.OutOfCoreReport;
import io.warpdb.exec.gpu.partition.OutOfCoreResult;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.StreamPipeline;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.sort.OutOfCoreSort;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The global sort-merge join of seed 002 section 3.2, for joins whose condition bounds a left
 * column by a right one ({@link RangeBounds}: {@code l.a BETWEEN r.lo AND r.hi}, {@code l.a < r.b}):
 * both inputs are sorted on the first bound's columns out of core (sorted runs on the devices,
 * merged: {@link OutOfCoreSort}), cut into blocks such that a pair of them fits a stream's share, and each
 * left block is joined in core only with the right blocks whose value ranges can satisfy every
 * bound (the seed partitions the sorted sides by merge path; here the blocks' ranges, found on
 * the host, pick the pairs). The pairs are joined as the block nested-loop join joins its blocks,
 * so every join kind holds; what the sort saves is the pairs that cannot match: a band or
 * interval join meets a few right blocks per left block instead of all of them.
 */
final class GlobalSortMergeJoin {
    private GlobalSortMergeJoin() {
    }

    /** Joins {@code left} with {@code right} (taken over and closed here) within {@code budget} bytes of each device. */
    static OutOfCoreResult run(JoinNode node, RangeBounds bounds, HostTable left, HostTable right, long budget, EntryEvaluator entries,
            List<CudaDevice> devices, BufferAllocator allocator) {
        OutOfCoreResult sortedLeft;
        try {
            sortedLeft = OutOfCoreSort.run(sortOn(node, bounds.leftSortColumn(), true), left, budget, devices, allocator);
        } catch (RuntimeException e) {
            right.close();
            throw e;
        }
        OutOfCoreResult sortedRight;
        try {
            sortedRight = OutOfCoreSort.run(sortOn(node, bounds.rightSortColumn(), false), right, budget, devices, allocator);
        } catch (RuntimeException e) {
            sortedLeft.rows().close();
            throw e;
        }
        long streamBudget = budget / PartitionPlan.STREAMS;
        BlockNestedLoopJoin blocks = new BlockNestedLoopJoin(node, entries, allocator, streamBudget);
        StreamPipeline pipeline = new StreamPipeline(devices, streamBudget, PartitionPlan.STREAMS);
        try (HostTable l = sortedLeft.rows(); HostTable r = sortedRight.rows()) {
            PartitionPlan.Blocks size = blockRows(node, l.rows(), r.rows(), streamBudget);
            List<HostTable> leftBlocks = blocks.blocks(l, size.leftRows());
            List<HostTable> rightBlocks = new ArrayList<>();
            try {
                // Cut inside the try, so that the left blocks are closed when cutting the right side fails.
                rightBlocks.addAll(blocks.blocks(r, size.rightRows()));
                List<RangeBounds.BlockRanges> leftRanges = leftBlocks.stream().map(b -> bounds.ranges(b, true)).toList();
                List<RangeBounds.BlockRanges> rightRanges = rightBlocks.stream().map(b -> bounds.ranges(b, false)).toList();
                List<int[]> meetings = bounds.meetings(leftRanges, rightRanges);
                long pairs = meetings.stream().mapToLong(m -> m.length).sum();
                HostTable rows = blocks.join(leftBlocks, rightBlocks, meetings, pipeline);
                String work = "both sides sorted on the devices, " + leftBlocks.size()
                        + " x " + rightBlocks.size() + " blocks of up to " + size.leftRows() + " x " + size.rightRows() + " rows, "
                        + pairs + " pairs of blocks whose ranges can match joined";
                OutOfCoreReport joined = OutOfCoreReport.of("global sort-merge join", work, "blocks", pipeline.tally(), pipeline);
                return new OutOfCoreResult(rows, joined.adding(sortedLeft.report()).adding(sortedRight.report()));
            } finally {
                leftBlocks.forEach(HostTable::close);
                rightBlocks.forEach(HostTable::close);
            }
        }
    }

    /**
     * Rows per block of each side: the in-core join of a pair of blocks tests every pair of their
     * rows (a nested loop), so a block pair's rows multiplied, at an output row's bytes each, fit a
     * quarter of a stream's share, as do its inputs; the sides get the same rows, a square of
     * pairs. (The block nested-loop join's sizing, one left row per block when all pairs may
     * match, would make a task per row.) A left block whose output does not fit is joined in halves.
     */
    static PartitionPlan.Blocks blockRows(JoinNode node, long leftRows, long rightRows, long streamBudget) {
        long part = streamBudget / PartitionPlan.WORKING_FACTOR;
        long side = (long) Math.sqrt((double) part / (HostTable.rowBytes(node.schema()) + 2L * Integer.BYTES));
        long left = Math.min(side, part / 2 / HostTable.rowBytes(node.left().schema()));
        long right = Math.min(side, part / 2 / HostTable.rowBytes(node.right().schema()));
        return new PartitionPlan.Blocks(Math.max(1, Math.min(leftRows, left)), Math.max(1, Math.min(rightRows, right)));
    }

    /** The sort of one input on {@code column}, ascending, NULLs last (they match nothing and end up in blocks of their own). */
    private static SortNode sortOn(JoinNode node, int column, boolean left) {
        return new SortNode(left ? node.left() : node.right(), List.of(new SortKey(column, false, false)), 0, -1);
    }
}
