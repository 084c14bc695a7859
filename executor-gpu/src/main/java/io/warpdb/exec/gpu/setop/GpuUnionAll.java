package io.warpdb.exec.gpu.setop;

import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.MergedDictionary;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.JCudaDriver;

/**
 * UNION ALL on the GPU: every input's rows, input after input, by device-to-device copies into
 * one column per output column. String columns whose inputs carry different dictionaries get a
 * {@link MergedDictionary}; each input's codes are renumbered by gathering from its code map
 * (codes of NULL rows are 0, a valid index).
 */
public final class GpuUnionAll {
    private GpuUnionAll() {
    }

    public static DeviceTable run(UnionNode node, List<DeviceTable> inputs, DeviceWork work) {
        return concatenate(node.schema(), inputs, work);
    }

    /** The rows of {@code inputs} (of {@code schema}'s types), input after input, as one new table; the inputs stay the caller's. */
    public static DeviceTable concatenate(Schema schema, List<DeviceTable> inputs, DeviceWork work) {
        long total = inputs.stream().mapToLong(DeviceTable::rows).sum();
        if (total > Integer.MAX_VALUE) {
            throw new io.warpdb.exec.gpu.runtime.GpuOutOfMemoryException("a GPU union holds at most 2^31-1 rows, not " + total);
        }
        int rows = (int) total;
        List<DeviceColumn> columns = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                columns.add(concatenate(schema.type(c), inputs, c, rows, work));
            }
            return new DeviceTable(schema, rows, columns);
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
    }

    private static DeviceColumn concatenate(DataType type, List<DeviceTable> inputs, int c, int rows, DeviceWork work) {
        int width = DeviceColumn.width(type);
        boolean nullable = inputs.stream().anyMatch(t -> t.column(c).validity() != null);
        MergedDictionary merged = type.kind().isString()
                ? MergedDictionary.of(inputs.stream().map(t -> t.column(c).dictionary()).toList()) : null;
        DeviceBuffer values = work.allocate((long) rows * width, "union values");
        DeviceBuffer validity = null;
        try {
            validity = nullable ? work.allocate(rows, "union validity") : null;
            long offset = 0;
            for (DeviceTable t : inputs) {
                DeviceColumn in = t.column(c);
                long n = t.rows();
                if (n > 0) {
                    if (merged != null && merged.renumbers()) {
                        try (DeviceColumn renumbered = renumber(in, merged.codeMap(in.dictionary()), work)) {
                            copy(values, offset * width, renumbered.values(), n * width, work);
                        }
                    } else {
                        copy(values, offset * width, in.values(), n * width, work);
                    }
                    if (validity != null) {
                        if (in.validity() != null) {
                            copy(validity, offset, in.validity(), n, work);
                        } else {
                            JCudaDriver.cuMemsetD8Async(validity.pointer(offset), (byte) 1, n, work.stream().handle());
                        }
                    }
                }
                offset += n;
            }
            return new DeviceColumn(type, rows, values, validity, merged == null ? null : merged.dictionary());
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
    }

    private static void copy(DeviceBuffer target, long targetOffset, DeviceBuffer source, long bytes, DeviceWork work) {
        JCudaDriver.cuMemcpyDtoDAsync(target.pointer(targetOffset), source.pointer(), bytes, work.stream().handle());
    }

    /** The input's codes in the merged dictionary: a gather from its code map at its codes. */
    private static DeviceColumn renumber(DeviceColumn in, int[] codeMap, DeviceWork work) {
        int[] map = codeMap.length == 0 ? new int[1] : codeMap;
        DeviceColumn mapColumn = new DeviceColumn(DataType.INTEGER, map.length, work.upload(map, "code map"), null, null);
        try (DeviceTable mapTable = new DeviceTable(Schema.of(new Field("code", DataType.INTEGER)), map.length,
                List.of(mapColumn));
                DeviceTable mapped = ColumnGather.gather(mapTable, in.values(), in.rows(), work)) {
            return mapped.column(0).share();
        }
    }
}
