package io.warpdb.exec.gpu.runtime;

import io.warpdb.core.exec.HostMemory;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Page-locked host memory for what tables keep resident (their encoded chunks), so that a scan's
 * copies to the device read it in place ({@link PinnedStaging.Upload#put} sends such bytes
 * straight from where they lie) instead of staging it first. Allocated portable (usable from
 * every context) and wrapped as Arrow memory charged to the caller's allocator; the last release
 * of the buffer frees it. Offered to storage through {@link HostMemory} when a device is present.
 */
public final class PinnedHostMemory implements HostMemory {
    /** The live allocations by start address: their pointers, for copies, and sizes. */
    private static final ConcurrentSkipListMap<Long, Allocation> LIVE = new ConcurrentSkipListMap<>();

    private record Allocation(Pointer pointer, long bytes) {
    }

    @Override
    public boolean available() {
        return CudaDevice.availability().supported();
    }

    @Override
    public ArrowBuf allocate(BufferAllocator allocator, long bytes) {
        if (bytes == 0) {
            return allocator.getEmpty();
        }
        CudaDevice.get().bind();
        Pointer pointer = new Pointer();
        JCudaDriver.cuMemHostAlloc(pointer, bytes, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE);
        long address = MemoryUtil.getByteBufferAddress(pointer.getByteBuffer(0, 1));
        LIVE.put(address, new Allocation(pointer, bytes));
        try {
            return allocator.wrapForeignAllocation(new ForeignAllocation(bytes, address) {
                @Override
                protected void release0() {
                    LIVE.remove(address);
                    CudaDevice.get().bind();
                    JCudaDriver.cuMemFreeHost(pointer);
                }
            });
        } catch (RuntimeException e) {
            LIVE.remove(address);
            JCudaDriver.cuMemFreeHost(pointer);
            throw e;
        }
    }

    /**
     * A device-copyable pointer to the remaining bytes of {@code bytes} when they lie in one live
     * page-locked allocation of this class; else null.
     */
    static Pointer pointerTo(ByteBuffer bytes) {
        if (!bytes.isDirect() || LIVE.isEmpty()) {
            return null;
        }
        long address = MemoryUtil.getByteBufferAddress(bytes) + bytes.position();
        Map.Entry<Long, Allocation> holder = LIVE.floorEntry(address);
        if (holder == null || address + bytes.remaining() > holder.getKey() + holder.getValue().bytes()) {
            return null;
        }
        return holder.getValue().pointer().withByteOffset(address - holder.getKey());
    }
}
