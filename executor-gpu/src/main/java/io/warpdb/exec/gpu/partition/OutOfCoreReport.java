package io.warpdb.exec.gpu.partition;

import java.util.Locale;

/**
 * What an out-of-core operator did, for EXPLAIN ANALYZE: how it cut its work (partitions and radix
 * passes, sorted runs, blocks), the tasks each device ran, its streams and the bytes it moved.
 *
 * @param operator e.g. {@code hybrid join}
 * @param work how the work was cut, e.g. {@code 64 partitions (1 radix pass per chunk), 0 split further}
 * @param dealt what the devices were dealt, e.g. {@code partitions}
 * @param perDevice how many of them each device ran
 */
public record OutOfCoreReport(String operator, String work, String dealt, DeviceTally perDevice, long streamBudget,
        long bytesToDevice, long bytesToHost, long kernelNanos) {
    /**
     * The report of a partitioning operator on {@code pipeline}, whose partitions ran as {@code perDevice} says.
     *
     * @param unsplit what became of the partitions no hash bits split, e.g. "3 joined in blocks (hot keys)"
     */
    public static OutOfCoreReport partitioned(String operator, int partitions, int passes, int splits, String unsplit,
            StreamPipeline pipeline, DeviceTally perDevice) {
        String work = partitions + " partitions (" + passes + " radix pass" + (passes == 1 ? "" : "es") + " per chunk), " + splits
                + " split further, " + unsplit;
        return of(operator, work, "partitions", perDevice, pipeline);
    }

    /** A report with {@code pipeline}'s stream budget, bytes and kernel time. */
    public static OutOfCoreReport of(String operator, String work, String dealt, DeviceTally perDevice, StreamPipeline pipeline) {
        return new OutOfCoreReport(operator, work, dealt, perDevice, pipeline.streamBudget(), pipeline.bytesToDevice(),
                pipeline.bytesToHost(), pipeline.kernelNanos());
    }

    /** This report with the bytes and kernel time of {@code other}, work the operator ran through another (its sorts). */
    public OutOfCoreReport adding(OutOfCoreReport other) {
        return adding(other.bytesToDevice, other.bytesToHost, other.kernelNanos);
    }

    /** This report with more bytes moved and kernel time, of work that ran outside its pipeline (a ring of devices). */
    public OutOfCoreReport adding(long moreToDevice, long moreToHost, long moreKernelNanos) {
        return new OutOfCoreReport(operator, work, dealt, perDevice, streamBudget, bytesToDevice + moreToDevice,
                bytesToHost + moreToHost, kernelNanos + moreKernelNanos);
    }

    public String note() {
        return "out-of-core " + operator + ": " + work + "; " + PartitionPlan.STREAMS + " streams of " + mib(streamBudget)
                + " each per device; " + dealt + " per device: " + perDevice.describe() + "; " + mib(bytesToDevice)
                + " to device, " + mib(bytesToHost) + " to host";
    }

    /** Bytes as MiB with one decimal. */
    public static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
