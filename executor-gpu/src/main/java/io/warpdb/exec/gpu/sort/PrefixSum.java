package io.warpdb.exec.gpu.sort;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Exclusive prefix sums of unsigned ints on the device (sort/scan.cu), totals below 2^31. */
public final class PrefixSum {
    private PrefixSum() {
    }

    /**
     * Writes the exclusive scan of {@code in[0..n)} to {@code out[0..n)} and the total to
     * {@code out[n]} ({@code out} holds n + 1 ints). Returns without waiting for the device.
     */
    public static void exclusive(DeviceBuffer in, DeviceBuffer out, int n, DeviceWork work) {
        if (n == 0) {
            out.fill((byte) 0, Integer.BYTES, work.stream());
            return;
        }
        int tiles = GridSize.tiles(n);
        try (DeviceBuffer status = work.allocateZeroed((long) tiles * Long.BYTES, "scan tile status");
                DeviceBuffer ticket = work.allocateZeroed(Integer.BYTES, "scan ticket")) {
            // Freed right after the launch: whoever gets the memory next uses it later on this stream.
            work.kernel("sort/scan", "exclusive_scan").launch(work.stream(), tiles, GridSize.BLOCK, 0, in, out, n, status, ticket);
        }
    }

    /** The total a previous {@link #exclusive} wrote to {@code out[n]}. */
    public static int total(DeviceBuffer out, int n, DeviceWork work) {
        if (n == 0) {
            return 0;
        }
        return ByteBuffer.wrap(work.downloadBytes(out, (long) n * Integer.BYTES, Integer.BYTES)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }
}
