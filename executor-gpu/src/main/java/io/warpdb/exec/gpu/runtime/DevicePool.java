package io.warpdb.exec.gpu.runtime;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import jcuda.CudaException;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * All device memory of the executor: one arena taken from the driver on first use, carved into
 * 256-byte aligned blocks (first fit over a free list ordered by address, neighbours coalesced
 * on free). One cuMemAlloc avoids the driver's synchronizing allocation per operator; the fixed
 * capacity is the executor's limit. When a request does not fit, the eviction hook (the column
 * cache) is asked to free memory before {@link GpuOutOfMemoryException} is thrown.
 *
 * <p>Operators free temporaries as soon as their last kernel is queued, before it has run. On the
 * freeing stream that is safe (its later work runs after), but queries run concurrently on
 * streams of their own, so a block freed with work still queued is held back until an event
 * recorded after that work has passed; an allocation that finds no room waits for all of them.
 */
public final class DevicePool {
    static final long ALIGNMENT = 256;

    private final CudaDevice device;
    private final long capacity;
    private CUdeviceptr arena;
    private long arenaAddress;
    private final TreeMap<Long, Long> freeBlocks = new TreeMap<>();
    private final Map<DeviceBuffer, String> live = new IdentityHashMap<>();
    private final List<BooleanSupplier> evictionHooks = new ArrayList<>();
    /** Blocks freed while their stream may still use them, reusable once the event has passed. */
    private final List<Pending> pending = new ArrayList<>();
    private long used;
    private long peak;
    private long allocations;
    private long failures;

    DevicePool(CudaDevice device, long capacity) {
        this.device = device;
        this.capacity = capacity / ALIGNMENT * ALIGNMENT;
    }

    /** Adds a hook that frees some pool memory and says whether it freed anything. */
    public synchronized void addEvictionHook(BooleanSupplier hook) {
        evictionHooks.add(hook);
    }

    private record Pending(long offset, long size, CUevent passed) {
    }

    /** A block of at least {@code bytes} (contents undefined), owned by the caller until closed. */
    public DeviceBuffer allocate(long bytes, String owner) {
        return allocate(bytes, owner, null);
    }

    /**
     * As {@link #allocate(long, String)} for work queued on {@code stream}: when the block is
     * closed, it returns to the pool only after the work queued on that stream by then.
     */
    public DeviceBuffer allocate(long bytes, String owner, GpuStream stream) {
        long size = Math.max(ALIGNMENT, (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
        while (true) {
            DeviceBuffer b = tryAllocate(size, bytes, owner, stream);
            if (b != null) {
                return b;
            }
            if (awaitPending()) {
                continue;
            }
            if (!evictSomething()) {
                synchronized (this) {
                    failures++;
                }
                throw new GpuOutOfMemoryException("GPU memory pool exhausted: " + owner + " needs " + bytes
                        + " bytes, " + (capacity - used()) + " of " + capacity + " free (largest block " + largestFreeBlock() + ")");
            }
        }
    }

    private boolean evictSomething() {
        List<BooleanSupplier> hooks;
        synchronized (this) {
            hooks = List.copyOf(evictionHooks);
        }
        // Hooks run unlocked: they close buffers, which calls back into free().
        for (BooleanSupplier hook : hooks) {
            if (hook.getAsBoolean()) {
                return true;
            }
        }
        return false;
    }

    private synchronized DeviceBuffer tryAllocate(long size, long requested, String owner, GpuStream stream) {
        reclaimPassed();
        if (arena == null) {
            device.bind();
            arena = new CUdeviceptr();
            JCudaDriver.cuMemAlloc(arena, capacity);
            arenaAddress = nativeAddress(arena);
            freeBlocks.put(0L, capacity);
        }
        for (Map.Entry<Long, Long> block : freeBlocks.entrySet()) {
            // Read the entry before removing it: TreeMap may reuse a removed entry for its successor.
            long offset = block.getKey();
            long blockSize = block.getValue();
            if (blockSize >= size) {
                freeBlocks.remove(offset);
                if (blockSize > size) {
                    freeBlocks.put(offset + size, blockSize - size);
                }
                used += size;
                peak = Math.max(peak, used);
                allocations++;
                DeviceBuffer b = new DeviceBuffer(this, arena.withByteOffset(offset), arenaAddress + offset, offset, size, requested,
                        stream);
                live.put(b, owner);
                return b;
            }
        }
        return null;
    }

    synchronized void free(DeviceBuffer buffer) {
        if (live.remove(buffer) == null) {
            return;
        }
        used -= buffer.reservedBytes();
        CUevent passed = null;
        if (buffer.stream() != null) {
            device.bind();
            passed = buffer.stream().markQueued();
        }
        if (passed == null) {
            release(buffer.offset(), buffer.reservedBytes());
        } else {
            pending.add(new Pending(buffer.offset(), buffer.reservedBytes(), passed));
        }
    }

    /** Returns the pending blocks whose events have passed to the free list. */
    private void reclaimPassed() {
        if (pending.isEmpty()) {
            return;
        }
        device.bind();
        pending.removeIf(p -> {
            if (!hasPassed(p.passed())) {
                return false;
            }
            JCudaDriver.cuEventDestroy(p.passed());
            release(p.offset(), p.size());
            return true;
        });
    }

    /** Whether the work before {@code event} has run; JCuda throws for "not ready", as for any result but success. */
    private static boolean hasPassed(CUevent event) {
        try {
            return JCudaDriver.cuEventQuery(event) == CUresult.CUDA_SUCCESS;
        } catch (CudaException e) {
            if (String.valueOf(e.getMessage()).contains(CUresult.stringFor(CUresult.CUDA_ERROR_NOT_READY))) {
                return false;
            }
            throw e;
        }
    }

    /** Waits for every pending block's event and frees the blocks; false when none was pending. */
    private boolean awaitPending() {
        List<Pending> waiting;
        synchronized (this) {
            if (pending.isEmpty()) {
                return false;
            }
            waiting = List.copyOf(pending);
        }
        device.bind();
        for (Pending p : waiting) {
            JCudaDriver.cuEventSynchronize(p.passed());
        }
        synchronized (this) {
            reclaimPassed();
        }
        return true;
    }

    /** Puts a block back on the free list, merged with free neighbours. */
    private void release(long offset, long size) {
        Map.Entry<Long, Long> before = freeBlocks.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue() == offset) {
            offset = before.getKey();
            size += before.getValue();
            freeBlocks.remove(offset);
        }
        Long after = freeBlocks.get(offset + size);
        if (after != null) {
            freeBlocks.remove(offset + size);
            size += after;
        }
        freeBlocks.put(offset, size);
    }

    /**
     * The device address a CUdeviceptr holds. JCuda keeps it protected, but kernels take arrays of
     * column addresses built on the host, so it is read once per arena.
     */
    private static long nativeAddress(CUdeviceptr pointer) {
        try {
            java.lang.reflect.Method m = jcuda.NativePointerObject.class.getDeclaredMethod("getNativePointer");
            m.setAccessible(true);
            return (Long) m.invoke(pointer);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read a device address from JCuda", e);
        }
    }

    private synchronized long largestFreeBlock() {
        return freeBlocks.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    public long capacity() {
        return capacity;
    }

    public synchronized long used() {
        return used;
    }

    public synchronized long peak() {
        return peak;
    }

    /** Owners of the blocks not yet closed: tests assert this is empty (cache entries aside). */
    public synchronized List<String> liveOwners() {
        return List.copyOf(live.values());
    }

    public synchronized Stats stats() {
        return new Stats(capacity, used, peak, live.size(), allocations, failures);
    }

    /** A snapshot of the pool's counters. */
    public record Stats(long capacity, long used, long peak, int liveBuffers, long allocations, long failures) {
    }
}
