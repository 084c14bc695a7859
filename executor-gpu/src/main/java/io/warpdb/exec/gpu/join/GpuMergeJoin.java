package io.warpdb.exec.gpu.join;

import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.PrefixSum;
import io.warpdb.exec.gpu.sort.RadixSorter;
import io.warpdb.exec.gpu.sort.ScannedFlags;
import io.warpdb.exec.gpu.sort.SortedSearch;
import java.util.List;

/**
 * Sort-merge join after moderngpu's "Relational Joins" (join/merge_join.cu), for INNER, LEFT,
 * RIGHT and FULL equi-joins, duplicates on both sides:
 * <ol>
 *   <li>each side's rows are radix-sorted by key, NULL keys last (they never match); several key
 *       columns are first packed into one 64-bit key ({@link PackedKeys}) when their types fit
 *       64 bits together: e.g. two INTEGER, DATE or VARCHAR keys, not a BIGINT key with another;
 *   <li>a vectorized sorted search finds every left key's lower and upper bound among the right
 *       keys; their difference is its match count, at least 1 for a LEFT or FULL join;
 *   <li>the counts are scanned into output offsets, and a load-balancing search gives every
 *       output row its left key and its rank among that key's matches, so a key with a million
 *       duplicates costs no more than a million keys with one;
 *   <li>the pairs are written, then for outer joins the unmatched rows: left rows with NULL keys
 *       (LEFT, FULL), and right rows whose key the left side lacks (a sorted search the other
 *       way) or is NULL (RIGHT, FULL).
 * </ol>
 * The caller gathers the output columns from the pairs.
 */
public final class GpuMergeJoin {
    private static final String MODULE = "join/merge_join";

    private GpuMergeJoin() {
    }

    /**
     * Why the keys of {@code node} cannot be merged on the GPU, or null when they can: one key
     * column of any type, or several whose types bound them to 64 bits together (decided from
     * the plan alone, so that EXPLAIN and the run agree whatever the data).
     */
    static String unsupportedKeys(JoinNode node) {
        if (node.leftKeys().isEmpty()) {
            return "the sort-merge join needs equality keys";
        }
        if (node.leftKeys().stream().anyMatch(k -> node.left().schema().type(k).isWideDecimal())) {
            return "the sort-merge join merges 64-bit keys; wide DECIMAL keys are hashed";
        }
        int bits = 0;
        for (int k = 0; k < node.leftKeys().size(); k++) {
            bits += PackedKeys.bitBound(node.left().schema().type(node.leftKeys().get(k)),
                    node.right().schema().type(node.rightKeys().get(k)));
        }
        return node.leftKeys().size() == 1 || bits <= PackedKeys.MAX_BITS ? null
                : "the sort-merge join packs several keys into 64 bits; these " + node.leftKeys().size() + " keys may need " + bits
                        + ", so they are hashed";
    }

    /** The pairs of {@code kind} (INNER, LEFT, RIGHT or FULL) on the keys of {@code node}; its residual is not looked at. */
    static JoinPairs match(JoinKind kind, JoinNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        if (kind == JoinKind.SEMI || kind == JoinKind.ANTI || unsupportedKeys(node) != null) {
            throw new IllegalArgumentException("the sort-merge join does not produce " + kind + " pairs on " + node.leftKeys());
        }
        boolean outerLeft = kind == JoinKind.LEFT || kind == JoinKind.FULL;
        boolean outerRight = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
        try (DeviceJoinKeys keys = DeviceJoinKeys.of(node, left, right, work);
                PackedKeys packed = keys.count() == 1 ? null : PackedKeys.of(keys, left.rows(), right.rows(), work);
                SortedSide l = SortedSide.of(packed == null ? keys.probeColumn(0) : packed.probe(), left.rows(), work);
                SortedSide r = SortedSide.of(packed == null ? keys.buildColumn(0) : packed.build(), right.rows(), work);
                DeviceBuffer lower = SortedSearch.bounds(l.keys, l.valid, r.keys, r.valid, true, work);
                DeviceBuffer upper = SortedSearch.bounds(l.keys, l.valid, r.keys, r.valid, false, work);
                DeviceBuffer counts = work.allocate((long) l.valid * Integer.BYTES, "merge join counts");
                DeviceBuffer offsets = work.allocate(((long) l.valid + 1) * Integer.BYTES, "merge join offsets");
                ScannedFlags rightOnly = outerRight ? unmatchedRight(l, r, work) : ScannedFlags.NONE) {
            int grid = GridSize.strided(l.valid, work);
            work.kernel(MODULE, "match_counts").launch(work.stream(), grid, GridSize.BLOCK, 0, lower, upper, l.valid,
                    outerLeft ? 1 : 0, counts);
            long matched = sum(counts, l.valid, work);
            long leftOnly = outerLeft ? l.rows - l.valid : 0;
            long total = matched + leftOnly + rightOnly.count() + (outerRight ? r.rows - r.valid : 0);
            if (total > Integer.MAX_VALUE) {
                throw new GpuOutOfMemoryException("a GPU join result holds at most 2^31-1 rows, not " + total);
            }
            PrefixSum.exclusive(counts, offsets, l.valid, work);
            DeviceBuffer outLeft = work.allocate(total * Integer.BYTES, "join left row ids");
            DeviceBuffer outRight = null;
            try {
                outRight = work.allocate(total * Integer.BYTES, "join right row ids");
                expand(l, r, lower, upper, offsets, (int) matched, outLeft, outRight, work);
                long at = matched;
                if (leftOnly > 0) {
                    appendRows(outLeft, outRight, at, l.ids.pointer((long) l.valid * Integer.BYTES), null, (int) leftOnly, work);
                    at += leftOnly;
                }
                if (outerRight) {
                    appendUnmatched(rightOnly, r, outLeft, outRight, at, work);
                    at += rightOnly.count();
                    appendRows(outLeft, outRight, at, null, r.ids.pointer((long) r.valid * Integer.BYTES), r.rows - r.valid, work);
                }
                return new JoinPairs(outLeft, outRight, (int) total);
            } catch (RuntimeException e) {
                outLeft.close();
                if (outRight != null) {
                    outRight.close();
                }
                throw e;
            }
        }
    }

    /** One input's row ids sorted by key (NULL keys last) and the keys of its {@code valid} non-NULL rows in that order. */
    private record SortedSide(DeviceBuffer ids, DeviceBuffer keys, int rows, int valid) implements AutoCloseable {
        static SortedSide of(KeyColumn key, int rows, DeviceWork work) {
            int valid = (int) key.range(work).valids();
            DeviceBuffer ids = RadixSorter.sortedRowIds(List.of(new RadixSorter.Key(key, false, false)), rows, work);
            try {
                return new SortedSide(ids, SortedSearch.sortedKeys(key, ids, valid, work), rows, valid);
            } catch (RuntimeException e) {
                ids.close();
                throw e;
            }
        }

        @Override
        public void close() {
            ids.close();
            keys.close();
        }
    }

    /** Flags the right rows whose non-NULL key no left key equals (RIGHT and FULL joins), scanned. */
    private static ScannedFlags unmatchedRight(SortedSide l, SortedSide r, DeviceWork work) {
        try (DeviceBuffer lower = SortedSearch.bounds(r.keys, r.valid, l.keys, l.valid, true, work);
                DeviceBuffer upper = SortedSearch.bounds(r.keys, r.valid, l.keys, l.valid, false, work)) {
            DeviceBuffer flags = work.allocate((long) r.valid * Integer.BYTES, "unmatched right keys");
            try {
                work.kernel(MODULE, "unmatched_flags").launch(work.stream(), GridSize.strided(r.valid, work), GridSize.BLOCK, 0,
                        lower, upper, r.valid, flags);
            } catch (RuntimeException e) {
                flags.close();
                throw e;
            }
            return ScannedFlags.scan(flags, r.valid, work);
        }
    }

    /** Writes (-1, right row) for each unmatched right key from position {@code at}. */
    private static void appendUnmatched(ScannedFlags rightOnly, SortedSide r, DeviceBuffer outLeft, DeviceBuffer outRight, long at,
            DeviceWork work) {
        work.kernel(MODULE, "append_unmatched").launch(work.stream(), GridSize.strided(r.valid, work), GridSize.BLOCK, 0,
                rightOnly.flags(), rightOnly.offsets(), r.ids, r.valid, at, outLeft, outRight);
    }

    /** The 64-bit total of {@code count} unsigned counts. */
    private static long sum(DeviceBuffer counts, int count, DeviceWork work) {
        try (DeviceBuffer total = work.allocateZeroed(Long.BYTES, "merge join total")) {
            work.kernel(MODULE, "sum_counts").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK, 0,
                    counts, count, total);
            return work.downloadLongs(total, 1)[0];
        }
    }

    /** Writes the {@code outputs} pairs of the matched (and for LEFT/FULL unmatched) non-NULL left keys. */
    private static void expand(SortedSide l, SortedSide r, DeviceBuffer lower, DeviceBuffer upper, DeviceBuffer offsets,
            int outputs, DeviceBuffer outLeft, DeviceBuffer outRight, DeviceWork work) {
        if (outputs == 0) {
            return;
        }
        try (DeviceBuffer starts = work.allocate((long) l.valid * Long.BYTES, "segment starts")) {
            work.kernel(MODULE, "widen").launch(work.stream(), GridSize.strided(l.valid, work), GridSize.BLOCK, 0,
                    offsets, l.valid, starts);
            try (DeviceBuffer segment = SortedSearch.segments(outputs, starts, l.valid, work)) {
                work.kernel(MODULE, "expand_pairs").launch(work.stream(), GridSize.strided(outputs, work),
                        GridSize.BLOCK, 0, segment, offsets, lower, upper, l.ids, r.ids, outputs, outLeft, outRight);
            }
        }
    }

    /** Appends {@code count} pairs at {@code at}: left ids with -1, or -1 with right ids (the other side null). */
    private static void appendRows(DeviceBuffer outLeft, DeviceBuffer outRight, long at, Object leftIds, Object rightIds, int count,
            DeviceWork work) {
        work.kernel(JoinCompletion.MODULE, "append_pairs").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK, 0,
                outLeft, outRight, at, leftIds, rightIds, count);
    }
}
