package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.sort.RowOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ORDER BY with OFFSET/LIMIT: collects the input into one batch, orders its row numbers (stable,
 * see {@link RowOrder}) and emits rows [offset, offset + limit) of that order in batches. With a
 * limit (top-N), the collected rows are cut back to the best offset + limit whenever they grow
 * well past that, so memory stays proportional to offset + limit rather than to the input. Large
 * inputs are sorted on the query's workers (see {@link RowOrder#sortFirst}).
 */
final class SortOperator extends Operator {
    private final List<SortKey> keys;
    private final long offset;
    /** offset + limit: how many leading rows of the order matter; -1 when all do. */
    private final long needed;

    private final List<Batch> collected = new ArrayList<>();
    private long collectedRows;
    private Batch sorted;
    private int[] order;
    private int nextPosition;
    private int endPosition;

    SortOperator(SortNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.keys = node.keys();
        this.offset = node.offset();
        this.needed = node.limit() < 0 ? -1 : saturatedAdd(node.offset(), node.limit());
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }

    @Override
    public Batch next() {
        if (sorted == null) {
            if (needed == 0) {
                return null;
            }
            sortInput();
        }
        if (nextPosition >= endPosition) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, endPosition - nextPosition);
        int[] rows = Arrays.copyOfRange(order, nextPosition, nextPosition + count);
        nextPosition += count;
        return BatchRows.gather(sorted, rows, allocator());
    }

    private void sortInput() {
        // Cutting back at a batch per worker gives each worker a batch to pick its best rows from.
        long cutBackAt = needed < 0 ? Long.MAX_VALUE : Math.max(2 * needed, (long) MAX_BATCH_ROWS * context.parallelism());
        Batch batch;
        while ((batch = pullNonEmpty(input(0))) != null) {
            collected.add(batch);
            collectedRows += batch.rowCount();
            if (collectedRows >= cutBackAt) {
                keepOnlyNeededRows();
            }
        }
        sorted = concatCollected();
        order = sortFirst(sorted);
        endPosition = order.length;
        nextPosition = (int) Math.min(offset, endPosition);
    }

    /** Replaces the collected rows by the first {@code needed} of their order. */
    private void keepOnlyNeededRows() {
        try (Batch all = concatCollected()) {
            int[] best = sortFirst(all);
            Batch kept = BatchRows.gather(all, best, allocator());
            collected.add(kept);
            collectedRows = kept.rowCount();
        }
    }

    /** The first {@code needed} row numbers of {@code batch} in order (all when needed is -1). */
    private int[] sortFirst(Batch batch) {
        int limit = (int) Math.min(batch.rowCount(), needed < 0 ? Long.MAX_VALUE : needed);
        return RowOrder.sortFirst(batch, keys, limit, context.parallelism(), Workers::runAll);
    }

    /** One batch of all collected rows; the collected list is emptied (the batch owns the rows). */
    private Batch concatCollected() {
        List<Batch> batches = new ArrayList<>(collected);
        collected.clear();
        collectedRows = 0;
        return BatchRows.concat(schema(), batches, allocator());
    }

    @Override
    protected void releaseState() {
        try {
            BatchRows.closeAll(collected);
        } finally {
            if (sorted != null) {
                sorted.close();
            }
        }
    }
}
