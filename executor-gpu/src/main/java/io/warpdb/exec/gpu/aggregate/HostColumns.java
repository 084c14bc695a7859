package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/** Device columns made from values computed on the host (aggregate results, one per group). */
final class HostColumns {
    private HostColumns() {
    }

    /**
     * A column of {@code type} from physical values (integers, unscaled decimals, days, 0/1,
     * double bits, codes into {@code dictionary}; a wide DECIMAL's as two words per row, low then
     * high) and NULL flags (null: none).
     */
    static DeviceColumn upload(DataType type, long[] values, boolean[] nulls, StringDictionary dictionary, DeviceWork work) {
        int width = DeviceColumn.width(type);
        int rows = width == 2 * Long.BYTES ? values.length / 2 : values.length;
        if (rows == 0) {
            return new DeviceColumn(type, 0, work.allocate(1, "aggregate values"), null, dictionary);
        }
        DeviceBuffer data = switch (width) {
            case 16, 8 -> work.upload(values, "aggregate values");
            case 4 -> {
                int[] ints = new int[rows];
                for (int i = 0; i < rows; i++) {
                    ints[i] = (int) values[i];
                }
                yield work.upload(ints, "aggregate values");
            }
            default -> {
                byte[] bytes = new byte[rows];
                for (int i = 0; i < rows; i++) {
                    bytes[i] = (byte) values[i];
                }
                yield work.upload(bytes, "aggregate bytes");
            }
        };
        DeviceBuffer validity = null;
        if (nulls != null) {
            byte[] valid = new byte[rows];
            boolean anyNull = false;
            for (int i = 0; i < rows; i++) {
                valid[i] = nulls[i] ? (byte) 0 : (byte) 1;
                anyNull |= nulls[i];
            }
            validity = anyNull ? work.upload(valid, "aggregate validity") : null;
        }
        return new DeviceColumn(type, rows, data, validity, dictionary);
    }
}
