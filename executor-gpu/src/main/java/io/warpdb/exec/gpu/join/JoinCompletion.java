package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.ScannedFlags;

/**
 * Turns the pairs that satisfy a join's whole condition into the output pairs of its kind
 * (join/join_pairs.cu): INNER keeps them; LEFT, RIGHT and FULL add the rows of their outer
 * side(s) that no pair uses, paired with -1; SEMI and ANTI keep the left rows some pair uses /
 * no pair uses, once each, in row order.
 */
final class JoinCompletion {
    static final String MODULE = "join/join_pairs";
    private static final int MATCHED = 1;
    private static final int UNMATCHED = 0;

    private JoinCompletion() {
    }

    /** The output pairs; for INNER, {@code matched} itself. */
    static JoinPairs complete(JoinKind kind, JoinPairs matched, int leftRows, int rightRows, DeviceWork work) {
        return switch (kind) {
            case INNER -> matched;
            case SEMI, ANTI -> {
                Rows rows = rowsWhere(matched.leftRows(), matched.count(), leftRows, kind == JoinKind.SEMI ? MATCHED : UNMATCHED,
                        work);
                yield new JoinPairs(rows.ids(), null, rows.count());
            }
            case LEFT, RIGHT, FULL -> {
                boolean left = kind != JoinKind.RIGHT;
                boolean right = kind != JoinKind.LEFT;
                try (Rows leftOnly = left ? rowsWhere(matched.leftRows(), matched.count(), leftRows, UNMATCHED, work) : Rows.NONE;
                        Rows rightOnly = right ? rowsWhere(matched.rightRows(), matched.count(), rightRows, UNMATCHED, work)
                                : Rows.NONE) {
                    yield append(matched, leftOnly, rightOnly, work);
                }
            }
        };
    }

    /** Row ids in ascending order. */
    private record Rows(DeviceBuffer ids, int count) implements AutoCloseable {
        static final Rows NONE = new Rows(null, 0);

        @Override
        public void close() {
            if (ids != null) {
                ids.close();
            }
        }
    }

    /** The rows of {0..rows) that the ids mark ({@link #MATCHED}) or do not mark ({@link #UNMATCHED}). */
    private static Rows rowsWhere(DeviceBuffer ids, int count, int rows, int want, DeviceWork work) {
        int grid = GridSize.strided(rows, work);
        DeviceBuffer flags;
        try (DeviceBuffer marks = work.allocateZeroed((long) rows * Integer.BYTES, "join row marks")) {
            flags = work.allocate((long) rows * Integer.BYTES, "join row flags");
            work.kernel(MODULE, "mark_rows").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK, 0, ids, count, marks);
            work.kernel(MODULE, "select_flags").launch(work.stream(), grid, GridSize.BLOCK, 0, marks, want, rows, flags);
        }
        try (ScannedFlags selected = ScannedFlags.scan(flags, rows, work)) {
            DeviceBuffer out = work.allocate((long) selected.count() * Integer.BYTES, "join unmatched row ids");
            work.kernel(MODULE, "scatter_flagged").launch(work.stream(), grid, GridSize.BLOCK, 0, flags, selected.offsets(), rows, out);
            return new Rows(out, selected.count());
        }
    }

    /** The matched pairs, then each left-only row with -1, then -1 with each right-only row. */
    private static JoinPairs append(JoinPairs matched, Rows leftOnly, Rows rightOnly, DeviceWork work) {
        long total = (long) matched.count() + leftOnly.count() + rightOnly.count();
        if (total > Integer.MAX_VALUE) {
            throw new GpuOutOfMemoryException("a GPU join result holds at most 2^31-1 rows, not " + total);
        }
        DeviceBuffer outLeft = work.allocate(total * Integer.BYTES, "join left row ids");
        try {
            DeviceBuffer outRight = work.allocate(total * Integer.BYTES, "join right row ids");
            appendPairs(outLeft, outRight, 0, matched.leftRows(), matched.rightRows(), matched.count(), work);
            appendPairs(outLeft, outRight, matched.count(), leftOnly.ids(), null, leftOnly.count(), work);
            appendPairs(outLeft, outRight, (long) matched.count() + leftOnly.count(), null, rightOnly.ids(), rightOnly.count(), work);
            return new JoinPairs(outLeft, outRight, (int) total);
        } catch (RuntimeException e) {
            outLeft.close();
            throw e;
        }
    }

    private static void appendPairs(DeviceBuffer outLeft, DeviceBuffer outRight, long at, DeviceBuffer left, DeviceBuffer right,
            int count, DeviceWork work) {
        work.kernel(MODULE, "append_pairs").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK, 0, outLeft, outRight,
                at, left, right, count);
    }
}
