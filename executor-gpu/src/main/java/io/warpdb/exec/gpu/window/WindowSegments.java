package io.warpdb.exec.gpu.window;

import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.PrefixSum;
import io.warpdb.exec.gpu.sort.RadixSorter;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a window's input in partition-then-order order, and the segments of that order on
 * the device: one stable radix sort ({@link RadixSorter}, as ORDER BY; partition keys ascending,
 * NULLs first, as the CPU sorts them) serves every call of the node. Partitions start where the
 * partition keys change, peer groups where any key changes (group_sort.cu's segment_heads, NULLs
 * equal to NULLs, -0.0 to 0.0); a scan of those heads numbers the segments (window/segments.cu).
 * A wide DECIMAL key sorts and compares as two key columns ({@link KeyColumn#of}), so
 * partitions are told apart by the key columns of the partition keys, not by the keys' count.
 * Per sorted position: its row, its partition's and its peer group's number; per segment its
 * first position (then the row count), so kernels read a row's bounds as starts[id], starts[id + 1].
 */
record WindowSegments(int rows, DeviceBuffer sorted, DeviceBuffer partId, DeviceBuffer partStarts, DeviceBuffer peerId,
        DeviceBuffer peerStarts) implements AutoCloseable {
    static WindowSegments of(WindowNode node, DeviceTable input, DeviceWork work) {
        int rows = input.rows();
        List<KeyColumn> columns = new ArrayList<>();
        List<RadixSorter.Key> keys = new ArrayList<>();
        DeviceBuffer[] made = new DeviceBuffer[5];
        try {
            for (int k : node.partitionKeys()) {
                for (KeyColumn column : KeyColumn.of(input.column(k), true, work)) {
                    columns.add(column);
                    keys.add(new RadixSorter.Key(column, false, true));
                }
            }
            int partitionColumns = columns.size();
            for (SortKey k : node.orderKeys()) {
                for (KeyColumn column : KeyColumn.of(input.column(k.column()), true, work)) {
                    columns.add(column);
                    keys.add(new RadixSorter.Key(column, k.descending(), k.nullsFirst()));
                }
            }
            made[0] = RadixSorter.sortedRowIds(keys, rows, work);
            try (DeviceBuffer keyDescriptors = keySources(columns, work)) {
                made[1] = work.allocate((long) rows * Integer.BYTES, "window partition of position");
                made[2] = work.allocate(((long) rows + 1) * Integer.BYTES, "window partition starts");
                number(keyDescriptors, partitionColumns, made[0], rows, made[1], made[2], work);
                made[3] = work.allocate((long) rows * Integer.BYTES, "window peer group of position");
                made[4] = work.allocate(((long) rows + 1) * Integer.BYTES, "window peer group starts");
                number(keyDescriptors, columns.size(), made[0], rows, made[3], made[4], work);
            }
            return new WindowSegments(rows, made[0], made[1], made[2], made[3], made[4]);
        } catch (RuntimeException e) {
            for (DeviceBuffer b : made) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        } finally {
            columns.forEach(KeyColumn::close);
        }
    }

    /** The kernels' KeySource array (sort/ordered_key.cuh) of {@code columns} on the device. */
    static DeviceBuffer keySources(List<KeyColumn> columns, DeviceWork work) {
        return work.upload(KeyColumn.descriptors(columns), "window key descriptors");
    }

    /** Numbers the segments of the sorted rows that tie on the first {@code keyCount} key columns. */
    private static void number(DeviceBuffer keyDescriptors, int keyCount, DeviceBuffer sorted, int rows, DeviceBuffer ids,
            DeviceBuffer starts, DeviceWork work) {
        int grid = GridSize.strided(rows, work);
        try (DeviceBuffer heads = work.allocate((long) rows * Integer.BYTES, "window segment heads");
                DeviceBuffer headsBefore = work.allocate(((long) rows + 1) * Integer.BYTES, "window segment heads scan")) {
            work.kernel("aggregate/group_sort", "segment_heads").launch(work.stream(), grid, GridSize.BLOCK, 0, keyDescriptors,
                    keyCount, sorted, rows, heads);
            PrefixSum.exclusive(heads, headsBefore, rows, work);
            work.kernel("window/segments", "segment_ids").launch(work.stream(), grid, GridSize.BLOCK, 0, heads, headsBefore, rows,
                    ids, starts);
        }
    }

    @Override
    public void close() {
        for (DeviceBuffer b : new DeviceBuffer[] {sorted, partId, partStarts, peerId, peerStarts}) {
            b.close();
        }
    }
}
