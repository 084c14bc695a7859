package io.warpdb.core.exec;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one plan node did in one execution, for EXPLAIN ANALYZE. Thread-safe: operators may
 * record from worker threads while the consumer pulls.
 */
public final class NodeStats {
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong wallNanos = new AtomicLong();
    private final AtomicLong kernelNanos = new AtomicLong();
    private final AtomicLong bytesToDevice = new AtomicLong();
    private final AtomicLong bytesToHost = new AtomicLong();
    private final AtomicLong deviceBytesRead = new AtomicLong();
    private final AtomicLong deviceBytesWritten = new AtomicLong();
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private volatile String executor;

    /** Rows the node produced. */
    public void addRows(long n) {
        rows.addAndGet(n);
    }

    public long rows() {
        return rows.get();
    }

    /** Time spent producing the node's batches, inclusive of its inputs (as in most EXPLAIN ANALYZE). */
    public void addWallNanos(long n) {
        wallNanos.addAndGet(n);
    }

    public long wallNanos() {
        return wallNanos.get();
    }

    /** GPU kernel time; stays 0 on the CPU. */
    public void addKernelNanos(long n) {
        kernelNanos.addAndGet(n);
    }

    public long kernelNanos() {
        return kernelNanos.get();
    }

    public void addBytesToDevice(long n) {
        bytesToDevice.addAndGet(n);
    }

    public long bytesToDevice() {
        return bytesToDevice.get();
    }

    public void addBytesToHost(long n) {
        bytesToHost.addAndGet(n);
    }

    public long bytesToHost() {
        return bytesToHost.get();
    }

    /**
     * Device-memory bytes the node's kernels read: estimated from the device columns it consumed
     * (rows x value width, plus validity bytes), not counted per kernel launch; stays 0 on the CPU.
     */
    public void addDeviceBytesRead(long n) {
        deviceBytesRead.addAndGet(n);
    }

    public long deviceBytesRead() {
        return deviceBytesRead.get();
    }

    /** Device-memory bytes of the columns the node produced (estimated as {@link #addDeviceBytesRead} is). */
    public void addDeviceBytesWritten(long n) {
        deviceBytesWritten.addAndGet(n);
    }

    public long deviceBytesWritten() {
        return deviceBytesWritten.get();
    }

    /**
     * (read + written) / kernel time in GB/s (10^9 bytes per second), what the node's kernels achieved
     * against the device's memory bandwidth; 0 without kernel time.
     */
    public double deviceGigabytesPerSecond() {
        long nanos = kernelNanos();
        return nanos == 0 ? 0 : (double) (deviceBytesRead() + deviceBytesWritten()) / nanos;
    }

    /** Something EXPLAIN ANALYZE should say about the node, e.g. "gpu out of memory (...): reran on cpu". */
    public void note(String text) {
        notes.add(text);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** The executor that actually ran the node (after a fallback it differs from the placement). */
    public void setExecutor(String name) {
        executor = name;
    }

    /** Null until an executor has built the node. */
    public String executor() {
        return executor;
    }
}
