package io.warpdb.exec.gpu.setop;

import io.warpdb.core.plan.SetOpKind;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.aggregate.GpuAggregate;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.RadixSorter;
import io.warpdb.exec.gpu.sort.ScannedFlags;
import io.warpdb.exec.gpu.sort.SortedSearch;
import java.util.List;

/**
 * UNION (distinct), INTERSECT and EXCEPT, DISTINCT and ALL, with the M-BSP skeleton of Diamos et
 * al. (Red Fox) on sorted inputs:
 * <ol>
 *   <li>whole rows become keys: the two inputs are concatenated (one dictionary per string
 *       column) and numbered by distinct row as GROUP BY over every column numbers its groups,
 *       so equal rows, NULLs included, get equal numbers; each input's numbers are radix-sorted;
 *   <li>partition: merge path splits the merge of the two sorted inputs (and of each with
 *       itself) into tiles of equal work, however the duplicates fall;
 *   <li>merge: per tile, a sorted search gives each row its copies in the other input and its
 *       rank among its own copies, from which the set logic (setop/set_ops.cu) flags the rows
 *       kept: the first copy for DISTINCT, the copies below or beyond the other side's count for
 *       INTERSECT ALL / EXCEPT ALL;
 *   <li>gather: the flags are scanned into output positions and the kept rows' columns gathered.
 * </ol>
 * Output rows come in no particular order.
 */
public final class GpuSetOperation {
    private static final String MODULE = "setop/set_ops";
    private static final DataType ROW_NUMBER = DataType.INTEGER.withNullable(false);

    // Kept rows; must match set_ops.cu.
    private static final int KEEP_FIRST = 0;
    private static final int KEEP_FIRST_UNMATCHED = 1;
    private static final int KEEP_FIRST_MATCHED = 2;
    private static final int KEEP_BELOW_COUNT = 3;
    private static final int KEEP_FROM_COUNT = 4;

    private GpuSetOperation() {
    }

    /** The set operation of {@code left} and {@code right} (owned by the caller). */
    public static DeviceTable run(SetOpNode node, DeviceTable left, DeviceTable right, DeviceWork work) {
        UnionNode both = new UnionNode(List.of(node.left(), node.right()), node.schema());
        try (DeviceTable rows = GpuUnionAll.run(both, List.of(left, right), work);
                DeviceTable numbers = new DeviceTable(Schema.of(new Field("row_number", ROW_NUMBER)), rows.rows(), List.of(
                        new DeviceColumn(ROW_NUMBER, rows.rows(), GpuAggregate.rowGroupNumbers(rows, work), null, null)));
                Side l = Side.of(numbers, 0, left.rows(), work);
                Side r = Side.of(numbers, left.rows(), right.rows(), work)) {
            int leftMode = switch (node.kind()) {
                case UNION -> KEEP_FIRST;
                case INTERSECT -> node.all() ? KEEP_BELOW_COUNT : KEEP_FIRST_MATCHED;
                case EXCEPT -> node.all() ? KEEP_FROM_COUNT : KEEP_FIRST_UNMATCHED;
            };
            try (ScannedFlags fromLeft = kept(l, r, leftMode, work);
                    ScannedFlags fromRight = node.kind() == SetOpKind.UNION ? kept(r, l, KEEP_FIRST_UNMATCHED, work) : ScannedFlags.NONE) {
                long total = (long) fromLeft.count() + fromRight.count();
                try (DeviceBuffer kept = work.allocate(total * Integer.BYTES, "set operation rows")) {
                    scatter(fromLeft, l, 0, kept, work);
                    scatter(fromRight, r, fromLeft.count(), kept, work);
                    try (DeviceTable out = ColumnGather.gather(rows, kept, (int) total, work)) {
                        return new DeviceTable(node.schema(), out.rows(), out.columns().stream().map(DeviceColumn::share).toList());
                    }
                }
            }
        }
    }

    /**
     * One input: its rows' positions ({@code base} + position is the row in the concatenation)
     * sorted by distinct-row number, the numbers in that order, and each row's first copy.
     */
    private record Side(int base, int rows, DeviceBuffer positions, DeviceBuffer keys, DeviceBuffer first) implements AutoCloseable {
        /** The side of {@code rows} rows from row {@code base} of the concatenation, whose distinct-row numbers are {@code numbers}. */
        static Side of(DeviceTable numbers, int base, int rows, DeviceWork work) {
            try (DeviceBuffer ownRows = ColumnGather.sequence(base, rows, work);
                    DeviceTable own = ColumnGather.gather(numbers, ownRows, rows, work);
                    KeyColumn key = new KeyColumn(own.column(0), true, work)) {
                DeviceBuffer positions = RadixSorter.sortedRowIds(List.of(new RadixSorter.Key(key, false, false)), rows, work);
                DeviceBuffer keys = null;
                try {
                    keys = SortedSearch.sortedKeys(key, positions, rows, work);
                    DeviceBuffer first = SortedSearch.bounds(keys, rows, keys, rows, true, work);
                    return new Side(base, rows, positions, keys, first);
                } catch (RuntimeException e) {
                    positions.close();
                    if (keys != null) {
                        keys.close();
                    }
                    throw e;
                }
            }
        }

        @Override
        public void close() {
            positions.close();
            keys.close();
            first.close();
        }
    }

    /** Flags the rows of {@code own} that the set logic keeps ({@code mode}), scanned into output positions. */
    private static ScannedFlags kept(Side own, Side other, int mode, DeviceWork work) {
        try (DeviceBuffer lower = SortedSearch.bounds(own.keys, own.rows, other.keys, other.rows, true, work);
                DeviceBuffer upper = SortedSearch.bounds(own.keys, own.rows, other.keys, other.rows, false, work)) {
            DeviceBuffer flags = work.allocate((long) own.rows * Integer.BYTES, "set operation flags");
            try {
                work.kernel(MODULE, "set_flags").launch(work.stream(), GridSize.strided(own.rows, work), GridSize.BLOCK, 0, mode,
                        own.first, lower, upper, own.rows, flags);
            } catch (RuntimeException e) {
                flags.close();
                throw e;
            }
            return ScannedFlags.scan(flags, own.rows, work);
        }
    }

    /** Writes the kept rows' numbers in the concatenation from position {@code at} of {@code out}. */
    private static void scatter(ScannedFlags kept, Side own, long at, DeviceBuffer out, DeviceWork work) {
        if (kept.flags() != null) {
            work.kernel(MODULE, "scatter_kept").launch(work.stream(), GridSize.strided(own.rows, work), GridSize.BLOCK, 0,
                    kept.flags(), kept.offsets(), own.positions, own.base, own.rows, at, out);
        }
    }
}
