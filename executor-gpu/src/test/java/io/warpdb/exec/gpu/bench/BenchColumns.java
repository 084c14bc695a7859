package io.warpdb.exec.gpu.bench;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.runtime.PinnedStaging;
import java.nio.ByteBuffer;
import java.util.List;
import java.nio.ByteOrder;
import java.util.function.LongUnaryOperator;
import jcuda.driver.CUevent;
import jcuda.driver.JCudaDriver;

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

    /**
     * Read+write bytes per second of device-to-device copies of {@code sources} back to back, the
     * best of {@code runs} after a warm-up: the bandwidth a benchmark's kernels are held against.
     */
    public static double copyBandwidth(List<DeviceBuffer> sources, DeviceWork work, int runs) {
        long bytes = sources.stream().mapToLong(DeviceBuffer::bytes).sum();
        try (DeviceBuffer target = work.allocate(bytes, "copy target")) {
            CUevent start = new CUevent();
            CUevent end = new CUevent();
            JCudaDriver.cuEventCreate(start, 0);
            JCudaDriver.cuEventCreate(end, 0);
            float best = Float.MAX_VALUE;
            for (int run = 0; run <= runs; run++) {
                JCudaDriver.cuEventRecord(start, work.stream().handle());
                long at = 0;
                for (DeviceBuffer source : sources) {
                    JCudaDriver.cuMemcpyDtoDAsync(target.pointer(at), source.pointer(), source.bytes(), work.stream().handle());
                    at += source.bytes();
                }
                JCudaDriver.cuEventRecord(end, work.stream().handle());
                JCudaDriver.cuEventSynchronize(end);
                float[] ms = new float[1];
                JCudaDriver.cuEventElapsedTime(ms, start, end);
                if (run > 0) {
                    best = Math.min(best, ms[0]);
                }
            }
            JCudaDriver.cuEventDestroy(start);
            JCudaDriver.cuEventDestroy(end);
            return 2.0 * bytes / (best / 1e3);
        }
    }
}
