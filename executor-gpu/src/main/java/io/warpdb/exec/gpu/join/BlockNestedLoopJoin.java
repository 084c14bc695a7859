package io.warpdb.exec.gpu.join;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.expr.EntryEvaluator;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.PartitionPlan;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.partition.UsedDictionaryEntries;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The block nested-loop join of seed 002 section 3.1, for rows that no hash can separate: a join
 * without equality keys (any condition, a theta join) or a hot key of the hybrid join. Both inputs
 * are cut into blocks such that a pair of blocks and all the pairs they can make fit a stream's
 * share; each left block is one task (dealt over the streams of every device when the runner is
 * a pipeline) that joins it in core with every right block in turn: inner pairs from every pair of
 * blocks; the left rows no right block matched (a chain of ANTI joins over the right blocks)
 * padded with NULLs by the node's own outer join against an empty side; SEMI rows taken from what
 * earlier blocks left unmatched, so each is output once. RIGHT and FULL joins add one task per
 * right block for its unmatched rows: a chain of ANTI joins of the right block over the left
 * blocks, the residual's columns turned around to match. The global sort-merge join reuses it over
 * sorted inputs, joining only the pairs of blocks whose value ranges can match. Every device reads
 * the right blocks from host memory, unless several devices pass them round a ring ({@link BlockRing}).
 */
final class BlockNestedLoopJoin {
    private final JoinNode node;
    private final EntryEvaluator entries;
    private final org.apache.arrow.memory.BufferAllocator allocator;
    private final long streamBudget;
    /** The node's join as INNER, SEMI and ANTI joins, which a left block's rows are made of. */
    private final JoinNode inner;
    private final JoinNode semi;
    private final JoinNode anti;

    BlockNestedLoopJoin(JoinNode node, EntryEvaluator entries, org.apache.arrow.memory.BufferAllocator allocator, long streamBudget) {
        this.node = node;
        this.entries = entries;
        this.allocator = allocator;
        this.streamBudget = streamBudget;
        this.inner = variant(JoinKind.INNER, node.schema());
        this.semi = variant(JoinKind.SEMI, node.left().schema());
        this.anti = variant(JoinKind.ANTI, node.left().schema());
    }

    /** Rows per block of each side, for inputs of these rows. */
    PartitionPlan.Blocks blockRows(long leftRows, long rightRows) {
        return PartitionPlan.hotKeyBlocks(leftRows, rightRows, HostTable.rowBytes(node.left().schema()),
                HostTable.rowBytes(node.right().schema()), HostTable.rowBytes(node.schema()), streamBudget);
    }

    /** The join of {@code left} with {@code right} (both stay owned by the caller), its blocks' tasks run by {@code runner}. */
    HostTable run(HostTable left, HostTable right, TaskRunner runner) {
        return inBlocks(left, right, (leftBlocks, rightBlocks) -> {
            int[] everyRightBlock = IntStream.range(0, rightBlocks.size()).toArray();
            return join(leftBlocks, rightBlocks, leftBlocks.stream().map(l -> everyRightBlock).toList(), runner);
        });
    }

    /**
     * As {@link #run}, the left blocks' rows made by {@code ring} (the right blocks passed from
     * device to device); the unmatched right rows of RIGHT and FULL joins by {@code runner}.
     */
    HostTable runInRing(HostTable left, HostTable right, BlockRing ring, TaskRunner runner) {
        return inBlocks(left, right, (leftBlocks, rightBlocks) -> {
            List<HostTable> parts = new ArrayList<>();
            try {
                parts.addAll(ring.run(this, leftBlocks, rightBlocks));
                parts.addAll(runner.run(unmatchedRightTasks(rightBlocks, j -> leftBlocks)));
                return HostTable.concat(node.schema(), parts);
            } catch (RuntimeException e) {
                parts.forEach(HostTable::close);
                throw e;
            }
        });
    }

    /** {@code join} of both inputs cut into blocks of {@link #blockRows} (the blocks are closed after it). */
    private HostTable inBlocks(HostTable left, HostTable right, BiFunction<List<HostTable>, List<HostTable>, HostTable> join) {
        PartitionPlan.Blocks size = blockRows(left.rows(), right.rows());
        List<HostTable> leftBlocks = blocks(left, size.leftRows());
        List<HostTable> rightBlocks = new ArrayList<>();
        try {
            // Cut inside the try: when cutting the right side fails (a slice's copied validity bits
            // out of memory), the left blocks, slices that keep all of the left's buffers, are closed too.
            rightBlocks.addAll(blocks(right, size.rightRows()));
            return join.apply(leftBlocks, rightBlocks);
        } finally {
            leftBlocks.forEach(HostTable::close);
            rightBlocks.forEach(HostTable::close);
        }
    }

    /**
     * The join of the rows of {@code leftBlocks} with those of {@code rightBlocks} (all stay owned
     * by the caller), where left block i can only produce rows with the right blocks {@code met.get(i)}
     * lists (ascending indexes); the other pairs are not joined.
     */
    HostTable join(List<HostTable> leftBlocks, List<HostTable> rightBlocks, List<int[]> met, TaskRunner runner) {
        List<TaskRunner.Task<HostTable>> tasks = new ArrayList<>();
        List<List<HostTable>> leftBlocksMet = new ArrayList<>();
        rightBlocks.forEach(r -> leftBlocksMet.add(new ArrayList<>()));
        for (int i = 0; i < leftBlocks.size(); i++) {
            HostTable l = leftBlocks.get(i);
            List<HostTable> rights = new ArrayList<>();
            for (int j : met.get(i)) {
                rights.add(rightBlocks.get(j));
                leftBlocksMet.get(j).add(l);
            }
            tasks.add(work -> leftBlock(l, rights, work));
        }
        tasks.addAll(unmatchedRightTasks(rightBlocks, leftBlocksMet::get));
        return HostTable.concat(node.schema(), runner.run(tasks));
    }

    /**
     * For RIGHT and FULL joins, a task per right block for its rows that none of the left blocks
     * {@code leftBlocksMet} gives for it matched; no task for other kinds.
     */
    private List<TaskRunner.Task<HostTable>> unmatchedRightTasks(List<HostTable> rightBlocks, IntFunction<List<HostTable>> leftBlocksMet) {
        List<TaskRunner.Task<HostTable>> tasks = new ArrayList<>();
        if (node.kind() == JoinKind.RIGHT || node.kind() == JoinKind.FULL) {
            HostTable noLeftRows = new HostTable(node.left().schema(), List.of());
            for (int j = 0; j < rightBlocks.size(); j++) {
                HostTable r = rightBlocks.get(j);
                List<HostTable> lefts = leftBlocksMet.apply(j);
                tasks.add(work -> unmatchedRight(r, lefts, noLeftRows, work));
            }
        }
        return tasks;
    }

    /** The rows of {@code table} cut into blocks of at most {@code rows} rows, sharing its buffers; the caller closes them. */
    List<HostTable> blocks(HostTable table, long rows) {
        List<HostTable> blocks = new ArrayList<>();
        for (List<Batch> chunk : table.chunks(rows, allocator)) {
            blocks.add(new HostTable(table.schema(), chunk));
        }
        return blocks;
    }

    /**
     * The join's rows that left block {@code l} makes with {@code rightBlocks}; when a pair's output
     * does not fit, the left block is joined in halves (each left row's rows depend on it alone).
     */
    private HostTable leftBlock(HostTable l, List<HostTable> rightBlocks, DeviceWork work) {
        try {
            return leftBlockInCore(l, rightBlocks, work);
        } catch (GpuOutOfMemoryException e) {
            if (l.rows() <= 1) {
                throw e;
            }
            work.synchronize();
        }
        List<HostTable> halves = blocks(l, (l.rows() + 1) / 2);
        List<HostTable> out = new ArrayList<>();
        try {
            for (HostTable half : halves) {
                out.add(leftBlock(half, rightBlocks, work));
            }
            return HostTable.concat(node.schema(), out);
        } catch (RuntimeException e) {
            out.forEach(HostTable::close);
            throw e;
        } finally {
            halves.forEach(HostTable::close);
        }
    }

    /** The join's rows that left block {@code l} makes with {@code rightBlocks} (inner pairs, and its outer, semi or anti rows). */
    private HostTable leftBlockInCore(HostTable l, List<HostTable> rightBlocks, DeviceWork work) {
        try (LeftBlockRows rows = new LeftBlockRows(l)) {
            for (HostTable r : rightBlocks) {
                try (DeviceTable onDevice = upload(r, work)) {
                    rows.meet(onDevice, work);
                }
            }
            return rows.finish(work);
        }
    }

    /**
     * The rows one left block makes, built one right block at a time (in device memory, where the
     * block loop or the ring of devices put it): inner pairs, the SEMI rows, and the left rows no
     * block matched so far (a chain of ANTI joins), which become the outer or anti rows at the end.
     */
    final class LeftBlockRows implements AutoCloseable {
        private final HostTable l;
        private final List<HostTable> out = new ArrayList<>();
        private HostTable unmatched;

        LeftBlockRows(HostTable l) {
            this.l = l;
            this.unmatched = l;
        }

        /** Adds what the block makes with right block {@code r}, on the device of {@code work}. */
        void meet(DeviceTable r, DeviceWork work) {
            JoinKind kind = node.kind();
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

        /** The block's rows once it met every right block (the caller owns them). */
        HostTable finish(DeviceWork work) {
            JoinKind kind = node.kind();
            if (kind == JoinKind.ANTI) {
                out.add(unmatched == l ? copy(l) : unmatched);
                unmatched = l;
            } else if (kind == JoinKind.LEFT || kind == JoinKind.FULL) {
                out.add(inCore(node, unmatched, new HostTable(node.right().schema(), List.of()), work));
            }
            HostTable rows = HostTable.concat(node.schema(), out);
            out.clear();
            return rows;
        }

        @Override
        public void close() {
            out.forEach(HostTable::close);
            out.clear();
            if (unmatched != l) {
                unmatched.close();
                unmatched = l;
            }
        }
    }

    /** The rows of right block {@code r} that no left block matched, padded with NULLs (RIGHT and FULL joins). */
    private HostTable unmatchedRight(HostTable r, List<HostTable> leftBlocks, HostTable noLeftRows, DeviceWork work) {
        int leftCount = node.left().schema().size();
        int rightCount = node.right().schema().size();
        // The residual reads left columns then right ones; the turned-around join has the right ones first.
        Expr residual = node.residual() == null ? null
                : Exprs.remap(node.residual(), i -> i < leftCount ? i + rightCount : i - leftCount);
        JoinNode rightAnti = new JoinNode(node.right(), node.left(), JoinKind.ANTI, node.rightKeys(), node.leftKeys(), residual,
                node.right().schema());
        HostTable unmatched = copy(r);
        for (HostTable l : leftBlocks) {
            try (HostTable before = unmatched) {
                unmatched = inCore(rightAnti, before, l, work);
            }
        }
        try (HostTable padded = unmatched) {
            return inCore(node, noLeftRows, padded, work);
        }
    }

    /** {@code join} of two host tables on the device (inputs stay owned by the caller). */
    HostTable inCore(JoinNode join, HostTable left, HostTable right, DeviceWork work) {
        try (DeviceTable r = upload(right, work)) {
            return inCore(join, left, r, work);
        }
    }

    /** {@code join} of a host table with a table in device memory (inputs stay owned by the caller). */
    private HostTable inCore(JoinNode join, HostTable left, DeviceTable right, DeviceWork work) {
        try (DeviceTable l = upload(left, work);
                DeviceTable out = GpuJoin.run(join, l, right, entries, work)) {
            return HostTable.download(out, allocator, work);
        }
    }

    /** A block copied to the device of {@code work}, its wide string dictionaries cut to the entries it uses. */
    DeviceTable upload(HostTable block, DeviceWork work) {
        try (HostTable recoded = UsedDictionaryEntries.of(block, allocator)) {
            return HostToDevice.upload(block.schema(), recoded.batches(), work);
        }
    }

    /** The node's join of another kind, with the given output schema. */
    private JoinNode variant(JoinKind kind, Schema schema) {
        return new JoinNode(node.left(), node.right(), kind, node.leftKeys(), node.rightKeys(), node.residual(), schema);
    }

    /** A table sharing {@code table}'s buffers, owned separately. */
    private HostTable copy(HostTable table) {
        List<Batch> batches = new ArrayList<>();
        for (Batch b : table.batches()) {
            batches.add(Batches.slice(b, 0, b.rowCount(), allocator));
        }
        return new HostTable(table.schema(), batches);
    }
}
