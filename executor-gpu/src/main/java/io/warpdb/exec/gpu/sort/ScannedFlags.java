package io.warpdb.exec.gpu.sort;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/**
 * 0/1 flags over {@code n} items with their exclusive prefix sum: item i, when flagged, goes to
 * output position {@code offsets[i]}, and {@code count} items are flagged. The selection step
 * every compaction (unmatched join rows, kept set-operation rows) shares.
 */
public record ScannedFlags(DeviceBuffer flags, DeviceBuffer offsets, int count) implements AutoCloseable {
    /** No items. */
    public static final ScannedFlags NONE = new ScannedFlags(null, null, 0);

    /** Scans {@code flags} (n unsigned ints, which this takes over) and reads the total. */
    public static ScannedFlags scan(DeviceBuffer flags, int n, DeviceWork work) {
        DeviceBuffer offsets = null;
        try {
            offsets = work.allocate(((long) n + 1) * Integer.BYTES, "flag offsets");
            PrefixSum.exclusive(flags, offsets, n, work);
            return new ScannedFlags(flags, offsets, PrefixSum.total(offsets, n, work));
        } catch (RuntimeException e) {
            flags.close();
            if (offsets != null) {
                offsets.close();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (flags != null) {
            flags.close();
            offsets.close();
        }
    }
}
