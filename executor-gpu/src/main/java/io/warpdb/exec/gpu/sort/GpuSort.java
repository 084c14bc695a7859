package io.warpdb.exec.gpu.sort;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/**
 * ORDER BY with OFFSET/LIMIT on the GPU: a stable radix sort of the row ids by the keys
 * ({@link RadixSorter}), then every column gathered through the kept window of the order.
 * Orders as the CPU does: strings by value, doubles as Double.compare (-0.0 before 0.0, NaN
 * last), FALSE before TRUE, NULLs where the key says regardless of direction; a wide DECIMAL key
 * sorts as two, its upper word then its lower ({@link KeyColumn#of}).
 */
public final class GpuSort {
    private GpuSort() {
    }

    public static Support supports(SortNode node) {
        return Support.YES;
    }

    public static DeviceTable run(SortNode node, DeviceTable input, DeviceWork work) {
        int rows = input.rows();
        int first = (int) Math.min(rows, Math.max(0, node.offset()));
        int count = (int) (node.limit() < 0 ? rows - first : Math.min(rows - first, node.limit()));
        if (node.keys().isEmpty() || rows <= 1) {
            try (DeviceBuffer window = ColumnGather.sequence(first, count, work)) {
                return ColumnGather.gather(input, window, count, work);
            }
        }
        List<KeyColumn> columns = new ArrayList<>();
        try {
            List<RadixSorter.Key> keys = new ArrayList<>();
            for (SortKey k : node.keys()) {
                // Equality keys: -0.0 and 0.0 are equal values, so they tie and later keys decide.
                for (KeyColumn column : KeyColumn.of(input.column(k.column()), true, work)) {
                    columns.add(column);
                    keys.add(new RadixSorter.Key(column, k.descending(), k.nullsFirst()));
                }
            }
            try (DeviceBuffer order = RadixSorter.sortedRowIds(keys, rows, work)) {
                return ColumnGather.gather(input, order, first, count, work);
            }
        } finally {
            columns.forEach(KeyColumn::close);
        }
    }
}
