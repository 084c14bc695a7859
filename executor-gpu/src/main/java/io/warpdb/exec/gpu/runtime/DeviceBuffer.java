package io.warpdb.exec.gpu.runtime;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.JCudaDriver;

/** A block of device memory from the {@link DevicePool}; closing returns it (once). */
public final class DeviceBuffer implements AutoCloseable {
    private final DevicePool pool;
    private final CUdeviceptr pointer;
    private final long address;
    private final long offset;
    private final long reservedBytes;
    private final long bytes;
    /** The budget the block counts against (null: the pool's capacity only). */
    private final DeviceBudget budget;
    private boolean closed;

    DeviceBuffer(DevicePool pool, CUdeviceptr pointer, long address, long offset, long reservedBytes, long bytes,
            DeviceBudget budget) {
        this.pool = pool;
        this.budget = budget;
        this.pointer = pointer;
        this.address = address;
        this.offset = offset;
        this.reservedBytes = reservedBytes;
        this.bytes = bytes;
    }

    /** The device address, for address arrays that kernels read. */
    public long address() {
        return address;
    }

    public CUdeviceptr pointer() {
        return pointer;
    }

    public CUdeviceptr pointer(long byteOffset) {
        return pointer.withByteOffset(byteOffset);
    }

    /** Bytes requested. */
    public long bytes() {
        return bytes;
    }

    /** Where the block starts in its pool's arena: what a process that mapped the arena ({@link DevicePool#ipcHandle}) adds to its mapping. */
    public long arenaOffset() {
        return offset;
    }

    long reservedBytes() {
        return reservedBytes;
    }

    /** Copies {@code length} bytes from host memory (pinned or direct) to {@code byteOffset}, on {@code stream}. */
    public void copyFromHost(Pointer host, long byteOffset, long length, GpuStream stream) {
        if (length > 0) {
            JCudaDriver.cuMemcpyHtoDAsync(pointer(byteOffset), host, length, stream.handle());
        }
    }

    /** Copies {@code length} bytes from {@code byteOffset} to host memory, on {@code stream}. */
    public void copyToHost(Pointer host, long byteOffset, long length, GpuStream stream) {
        if (length > 0) {
            JCudaDriver.cuMemcpyDtoHAsync(host, pointer(byteOffset), length, stream.handle());
        }
    }

    /**
     * Copies all of {@code source}, a buffer of {@code from}, into this buffer of {@code to}, on
     * {@code stream} (of {@code to}): peer to peer where the devices allow it, else the driver stages it.
     */
    public void copyFromPeer(DeviceBuffer source, CudaDevice from, CudaDevice to, GpuStream stream) {
        if (source.bytes > 0) {
            JCudaDriver.cuMemcpyPeerAsync(pointer(), to.context(), source.pointer(), from.context(), source.bytes, stream.handle());
        }
    }

    /** Sets every byte of the first {@code length} bytes to {@code value}. */
    public void fill(byte value, long length, GpuStream stream) {
        if (length > 0) {
            JCudaDriver.cuMemsetD8Async(pointer, value, length, stream.handle());
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            pool.free(this);
            if (budget != null) {
                budget.release(reservedBytes);
            }
        }
    }
}
