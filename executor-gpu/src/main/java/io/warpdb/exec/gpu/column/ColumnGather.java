package io.warpdb.exec.gpu.column;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/** New tables made of chosen rows of a table, in the order of a list of row ids (column/gather.cu). */
public final class ColumnGather {
    private static final int BLOCK = 256;

    private ColumnGather() {
    }

    /** Rows {@code rowIds[0..count)} of {@code t}. */
    public static DeviceTable gather(DeviceTable t, DeviceBuffer rowIds, int count, DeviceWork work) {
        return gather(t, rowIds, 0, count, work);
    }

    /** Rows {@code rowIds[first..first + count)} of {@code t} (a window of a permutation, e.g. OFFSET/LIMIT). */
    public static DeviceTable gather(DeviceTable t, DeviceBuffer rowIds, int first, int count, DeviceWork work) {
        List<DeviceColumn> out = new ArrayList<>(t.columns().size());
        try {
            for (DeviceColumn c : t.columns()) {
                out.add(gatherColumn(c, rowIds.pointer((long) first * Integer.BYTES), count, work));
            }
        } catch (RuntimeException e) {
            out.forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(t.schema(), count, out);
    }

    /**
     * Rows {@code rowIds[0..count)} of {@code t} where a negative id stands for a row of NULLs (the
     * missing side of an outer join); every column of the result has a validity.
     */
    public static DeviceTable gatherOrNull(DeviceTable t, DeviceBuffer rowIds, int count, DeviceWork work) {
        List<DeviceColumn> out = new ArrayList<>(t.columns().size());
        try {
            for (DeviceColumn c : t.columns()) {
                out.add(gatherColumnOrNull(c, rowIds, count, work));
            }
        } catch (RuntimeException e) {
            out.forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(t.schema(), count, out);
    }

    private static DeviceColumn gatherColumnOrNull(DeviceColumn c, DeviceBuffer ids, int count, DeviceWork work) {
        int width = DeviceColumn.width(c.type());
        DeviceBuffer values = work.allocate((long) count * width, "gathered values");
        DeviceBuffer validity = null;
        try {
            validity = work.allocate(count, "gathered validity");
            work.kernel("column/gather", "gather_or_null").launch(work.stream(), grid(count, work), BLOCK, 0, c.values(),
                    c.validity(), values, validity, width, ids, count);
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
        return new DeviceColumn(c.type(), count, values, validity, c.dictionary());
    }

    private static DeviceColumn gatherColumn(DeviceColumn c, Object ids, int count, DeviceWork work) {
        int width = DeviceColumn.width(c.type());
        DeviceBuffer values = work.allocate((long) count * width, "gathered values");
        DeviceBuffer validity = null;
        try {
            gatherBytes(c.values(), values, width, ids, count, work);
            if (c.validity() != null) {
                validity = work.allocate(count, "gathered validity");
                gatherBytes(c.validity(), validity, 1, ids, count, work);
            }
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
        return new DeviceColumn(c.type(), count, values, validity, c.dictionary());
    }

    private static void gatherBytes(DeviceBuffer in, DeviceBuffer out, int width, Object ids, int count, DeviceWork work) {
        work.kernel("column/gather", "gather").launch(work.stream(), grid(count, work), BLOCK, 0, in, out, width, ids, count);
    }

    private static int grid(int count, DeviceWork work) {
        return (int) Math.min(((long) count + BLOCK - 1) / BLOCK, (long) work.device().smCount() * 16);
    }

    /** A buffer holding {@code start, start + 1, ..., start + count - 1}. */
    public static DeviceBuffer sequence(int start, int count, DeviceWork work) {
        DeviceBuffer ids = work.allocate((long) count * Integer.BYTES, "row ids");
        work.kernel("column/gather", "sequence").launch(work.stream(), grid(count, work), BLOCK, 0, ids, start, count);
        return ids;
    }
}
