package io.warpdb.exec.gpu.partition;

import java.util.Locale;

/**
 * What an out-of-core operator did, for EXPLAIN ANALYZE: its partitions and radix passes, the
 * partitions split further or (joins) joined in blocks, its streams and the bytes it moved.
 *
 * @param hotKeyPartitions partitions joined in blocks; -1 for operators without that step
 */
public record OutOfCoreReport(String operator, int partitions, int passes, int splits, int hotKeyPartitions, long streamBudget,
        long bytesToDevice, long bytesToHost, long kernelNanos) {
    public String note() {
        return "out-of-core " + operator + ": " + partitions + " partitions (" + passes + " radix pass" + (passes == 1 ? "" : "es")
                + " per chunk), " + splits + " split further"
                + (hotKeyPartitions < 0 ? "" : ", " + hotKeyPartitions + " joined in blocks (hot keys)") + "; "
                + PartitionPlan.STREAMS + " streams of " + mib(streamBudget) + " each; " + mib(bytesToDevice) + " to device, "
                + mib(bytesToHost) + " to host";
    }

    /** Bytes as MiB with one decimal. */
    public static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
