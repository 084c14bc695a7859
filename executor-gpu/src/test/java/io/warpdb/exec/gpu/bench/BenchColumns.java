package io.warpdb.exec.gpu.bench;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.PinnedStaging;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.LongUnaryOperator;

/** Generated benchmark columns, written straight into device memory through the pinned staging buffers. */
public final class BenchColumns {
    private BenchColumns() {
    }

    /** {@code rows} values of a 4- or 8-byte {@code type}, row i holding {@code valueOfRow(i)} (called in row order). */
    public static DeviceColumn generate(DataType type, int rows, LongUnaryOperator valueOfRow, DeviceWork work) {
        int width = DeviceColumn.width(type);
        DeviceBuffer values = work.allocate((long) rows * width, "benchmark column");
        ByteBuffer chunk = ByteBuffer.allocate(8 << 20).order(ByteOrder.LITTLE_ENDIAN);
        PinnedStaging staging = work.device().staging();
        synchronized (staging) {
            PinnedStaging.Upload upload = staging.upload(values, work.stream());
            for (long row = 0; row < rows; ) {
                chunk.clear();
                while (chunk.remaining() >= width && row < rows) {
                    long v = valueOfRow.applyAsLong(row++);
                    if (width == 8) {
                        chunk.putLong(v);
                    } else {
                        chunk.putInt((int) v);
                    }
                }
                chunk.flip();
                upload.put(chunk);
            }
            upload.finish();
        }
        return new DeviceColumn(type, rows, values, null, null);
    }
}
