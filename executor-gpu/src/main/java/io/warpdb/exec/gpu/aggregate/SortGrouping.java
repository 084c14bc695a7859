package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.PrefixSum;
import io.warpdb.exec.gpu.sort.RadixSorter;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups rows by sorting them on their keys (radix sort, doubles with -0.0 equal to 0.0) and
 * starting a group wherever the keys change (aggregate/group_sort.cu); for keys too wide to pack.
 */
final class SortGrouping {
    private static final String MODULE = "aggregate/group_sort";

    private SortGrouping() {
    }

    static Groups group(List<KeyColumn> keys, DeviceBuffer keyDescriptors, int rows, DeviceWork work) {
        List<RadixSorter.Key> order = new ArrayList<>();
        for (KeyColumn k : keys) {
            order.add(new RadixSorter.Key(k, false, false));
        }
        int grid = GridSize.strided(rows, work);
        try (DeviceBuffer sorted = RadixSorter.sortedRowIds(order, rows, work);
                DeviceBuffer heads = work.allocate((long) rows * Integer.BYTES, "group heads");
                DeviceBuffer headsBefore = work.allocate(((long) rows + 1) * Integer.BYTES, "group heads scan")) {
            work.kernel(MODULE, "segment_heads").launch(work.stream(), grid, GridSize.BLOCK, 0, keyDescriptors, keys.size(),
                    sorted, rows, heads);
            PrefixSum.exclusive(heads, headsBefore, rows, work);
            int groups = PrefixSum.total(headsBefore, rows, work);
            DeviceBuffer groupOfRow = work.allocate((long) rows * Integer.BYTES, "group of row");
            DeviceBuffer representatives = null;
            try {
                representatives = work.allocate((long) groups * Integer.BYTES, "group representatives");
                work.kernel(MODULE, "segment_groups").launch(work.stream(), grid, GridSize.BLOCK, 0, sorted, heads, headsBefore,
                        rows, groupOfRow, representatives);
                return new Groups(groupOfRow, representatives, groups);
            } catch (RuntimeException e) {
                groupOfRow.close();
                if (representatives != null) {
                    representatives.close();
                }
                throw e;
            }
        }
    }
}
