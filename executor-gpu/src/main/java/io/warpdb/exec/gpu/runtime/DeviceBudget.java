package io.warpdb.exec.gpu.runtime;

/**
 * A limit on the device memory some work holds at once, below the pool's capacity: a query's
 * share ({@code GpuExecutorProvider}'s budget, so that tests and benchmarks give one query a small
 * device without a global property), or one stream's part of it in the out-of-core pipeline.
 * Blocks allocated under a budget give their bytes back when closed.
 */
public final class DeviceBudget {
    private final long capacity;
    private long used;

    public DeviceBudget(long capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a device budget needs bytes, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** The budget of the whole pool: the pool's capacity, as {@code -Dwarpdb.gpu.memory} set it. */
    public static DeviceBudget wholePool(CudaDevice device) {
        return new DeviceBudget(device.pool().capacity());
    }

    /** Takes {@code bytes}, or throws {@link GpuOutOfMemoryException} when they do not fit what is left. */
    synchronized void reserve(long bytes, String owner) {
        if (used + bytes > capacity) {
            throw new GpuOutOfMemoryException("device budget exhausted: " + owner + " needs " + bytes + " bytes, "
                    + (capacity - used) + " of " + capacity + " free");
        }
        used += bytes;
    }

    synchronized void release(long bytes) {
        used -= bytes;
    }

    public long capacity() {
        return capacity;
    }

    public synchronized long used() {
        return used;
    }
}
