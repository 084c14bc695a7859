package io.warpdb.exec.gpu.runtime;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import jcuda.CudaException;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUipcMemHandle;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * All device memory of the executor: one arena taken from the driver on first use, carved into
 * 256-byte aligned blocks (first fit over a free list ordered by address, neighbours coalesced
 * on free). One cuMemAlloc avoids the driver's synchronizing allocation per operator; the fixed
 * capacity is the executor's limit. When a request does not fit, the eviction hook (the column
 * cache) is asked to free memory before {@link GpuOutOfMemoryException} is thrown.
 *
 * <p>Operators free temporaries as soon as their last kernel is queued, before it has run, and a
 * block may be read by streams other than the one that wrote it (an operator's result is read by
 * its parent's stream, a cached column by every query's). Queries run concurrently on streams of
 * their own, so a freed block is held back until events recorded then on every open stream have
 * passed; an allocation that finds no room waits for them.
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
    /** Blocks freed while queued work may still use them, reusable once all their events have passed. */
    private final List<Pending> pending = new ArrayList<>();
    /** Streams created and not yet closed: any of them may have work queued that reads a block being freed. */
    private final Set<GpuStream> openStreams = ConcurrentHashMap.newKeySet();
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

    private record Pending(long offset, long size, List<CUevent> events) {
    }

    void streamOpened(GpuStream stream) {
        openStreams.add(stream);
    }

    void streamClosed(GpuStream stream) {
        openStreams.remove(stream);
    }

    /**
     * A block of at least {@code bytes} (contents undefined), owned by the caller until closed;
     * when closed, it returns to the pool only after the work queued on any stream by then.
     */
    public DeviceBuffer allocate(long bytes, String owner) {
        return allocate(bytes, owner, null);
    }

    /**
     * As {@link #allocate(long, String)}, counted against {@code budget} too (null: none) until
     * closed; a request over what the budget has left throws {@link GpuOutOfMemoryException}
     * without evicting anything.
     */
    public DeviceBuffer allocate(long bytes, String owner, DeviceBudget budget) {
        long size = Math.max(ALIGNMENT, (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
        if (budget != null) {
            budget.reserve(size, owner);
        }
        try {
            return allocateBlock(size, bytes, owner, budget);
        } catch (RuntimeException e) {
            if (budget != null) {
                budget.release(size);
            }
            throw e;
        }
    }

    private DeviceBuffer allocateBlock(long size, long bytes, String owner, DeviceBudget budget) {
        while (true) {
            DeviceBuffer b = tryAllocate(size, bytes, owner, budget);
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

    private synchronized DeviceBuffer tryAllocate(long size, long requested, String owner, DeviceBudget budget) {
        reclaimPassed();
        takeArena();
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
                        budget);
                live.put(b, owner);
                return b;
            }
        }
        return null;
    }

    private synchronized void takeArena() {
        if (arena == null) {
            device.bind();
            arena = new CUdeviceptr();
            JCudaDriver.cuMemAlloc(arena, capacity);
            arenaAddress = nativeAddress(arena);
            freeBlocks.put(0L, capacity);
        }
    }

    /**
     * The arena's CUDA IPC handle (64 bytes), by which another process of the host maps all of this
     * pool's memory once; a block is then an offset ({@link DeviceBuffer#arenaOffset}) into it.
     */
    public synchronized byte[] ipcHandle() {
        takeArena();
        device.bind();
        CUipcMemHandle handle = new CUipcMemHandle();
        JCudaDriver.cuIpcGetMemHandle(handle, arena);
        return IpcHandles.bytes(handle);
    }

    void free(DeviceBuffer buffer) {
        // Marked outside the pool's lock: a stream being closed waits for its work under its own.
        List<CUevent> queued = markOpenStreams();
        synchronized (this) {
            if (live.remove(buffer) == null) {
                destroy(queued);
                return;
            }
            used -= buffer.reservedBytes();
            if (queued.isEmpty()) {
                release(buffer.arenaOffset(), buffer.reservedBytes());
            } else {
                pending.add(new Pending(buffer.arenaOffset(), buffer.reservedBytes(), queued));
            }
        }
    }

    private List<CUevent> markOpenStreams() {
        if (openStreams.isEmpty()) {
            return List.of();
        }
        device.bind();
        List<CUevent> events = new ArrayList<>(openStreams.size());
        for (GpuStream stream : openStreams) {
            CUevent e = stream.markQueued();
            if (e != null) {
                events.add(e);
            }
        }
        return events;
    }

    /** Returns the pending blocks whose events have all passed to the free list; true when any was. */
    private boolean reclaimPassed() {
        if (pending.isEmpty()) {
            return false;
        }
        device.bind();
        return pending.removeIf(p -> {
            for (CUevent e : p.events()) {
                if (!hasPassed(e)) {
                    return false;
                }
            }
            destroy(p.events());
            release(p.offset(), p.size());
            return true;
        });
    }

    private static void destroy(List<CUevent> events) {
        for (CUevent e : events) {
            JCudaDriver.cuEventDestroy(e);
        }
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

    /**
     * Waits until some pending block is back on the free list; false when none was pending. Polls
     * rather than waiting on an event, which another thread may reclaim and destroy meanwhile.
     */
    private boolean awaitPending() {
        while (true) {
            synchronized (this) {
                if (pending.isEmpty()) {
                    return false;
                }
                if (reclaimPassed()) {
                    return true;
                }
            }
            LockSupport.parkNanos(20_000);
        }
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
