package io.warpdb.exec.gpu.runtime;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes the GPU executor moved into device memory since the JVM started, over all queries: what
 * benchmarks report per query as the difference of two {@link #totals()} around it (meaningful
 * when no other query runs meanwhile). Two figures, so that one run shows the copies before and
 * after scans decoded on the device: the bytes actually copied host-to-device, and the decoded
 * bytes of the table columns scans brought into device memory, which is what copying columns
 * decoded on the host would move.
 */
public final class TransferCounters {
    private static final LongAdder BYTES_TO_DEVICE = new LongAdder();
    private static final LongAdder SCANNED_COLUMN_BYTES = new LongAdder();

    /** Both counters at one moment. */
    public record Totals(long bytesToDevice, long scannedColumnBytes) {
        /** What was counted since {@code earlier}. */
        public Totals since(Totals earlier) {
            return new Totals(bytesToDevice - earlier.bytesToDevice, scannedColumnBytes - earlier.scannedColumnBytes);
        }
    }

    private TransferCounters() {
    }

    /** Counts bytes a query copied from the host to the device (columns, operator inputs, kernel arguments). */
    public static void addBytesToDevice(long bytes) {
        BYTES_TO_DEVICE.add(bytes);
    }

    /** Counts the decoded bytes of table columns a scan placed in device memory (not those found in the cache). */
    public static void addScannedColumnBytes(long bytes) {
        SCANNED_COLUMN_BYTES.add(bytes);
    }

    public static Totals totals() {
        return new Totals(BYTES_TO_DEVICE.sum(), SCANNED_COLUMN_BYTES.sum());
    }
}
