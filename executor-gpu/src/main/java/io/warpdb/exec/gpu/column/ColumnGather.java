package io.warpdb.exec.gpu.column;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/** GATHER (kernel {@code cuda/column/gather.cu}): a column's values at a list of row ids. */
public final class ColumnGather {
    private static final int BLOCK = 256;

    private ColumnGather() {
    }

    /** {@code column} at rows {@code rowIds[0..count)} (int32 row ids on the device). */
    public static DeviceColumn gather(DeviceColumn column, DeviceBuffer rowIds, int count, DeviceWork work) {
        int width = DeviceColumn.width(column.type());
        DeviceBuffer values = work.allocate((long) count * width, "gathered values");
        DeviceBuffer valid = null;
        try {
            if (column.validity() != null) {
                valid = work.allocate(count, "gathered validity");
            }
            int grid = (int) Math.max(1, Math.min((count + BLOCK - 1) / BLOCK, work.device().smCount() * 16L));
            work.kernel("column/gather", "gather").launch(work.stream(), count == 0 ? 0 : grid, BLOCK, 0,
                    column.values(), column.validity(), width, rowIds, (long) count, values, valid);
            return new DeviceColumn(column.type(), count, values, valid, column.dictionary());
        } catch (RuntimeException e) {
            values.close();
            if (valid != null) {
                valid.close();
            }
            throw e;
        }
    }
}
