package io.warpdb.exec.gpu.runtime;

import java.lang.reflect.Field;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUipcMemHandle;
import jcuda.driver.CUipcMem_flags;
import jcuda.driver.JCudaDriver;

/**
 * CUDA IPC memory handles as bytes (JCuda keeps a handle's 64 bytes in a private field), and the
 * mapping of another process's memory into this one (driver API).
 */
public final class IpcHandles {
    /** Bytes of a CUDA IPC handle (CU_IPC_HANDLE_SIZE). */
    public static final int BYTES = 64;

    private IpcHandles() {
    }

    static byte[] bytes(CUipcMemHandle handle) {
        return reserved(handle).clone();
    }

    private static byte[] reserved(CUipcMemHandle handle) {
        try {
            Field f = CUipcMemHandle.class.getDeclaredField("reserved");
            f.setAccessible(true);
            return (byte[]) f.get(handle);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read a CUDA IPC handle from JCuda", e);
        }
    }

    /**
     * Maps the memory that {@code handle} (another process's {@link DevicePool#ipcHandle}) names
     * into {@code device}'s context, peer access enabled as needed; closed with {@link #unmap}.
     */
    public static CUdeviceptr map(CudaDevice device, byte[] handle) {
        if (handle.length != BYTES) {
            throw new IllegalArgumentException("a CUDA IPC handle has " + BYTES + " bytes, not " + handle.length);
        }
        CUipcMemHandle h = new CUipcMemHandle();
        System.arraycopy(handle, 0, reserved(h), 0, BYTES);
        device.bind();
        CUdeviceptr mapped = new CUdeviceptr();
        JCudaDriver.cuIpcOpenMemHandle(mapped, h, CUipcMem_flags.CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
        return mapped;
    }

    /** Closes a mapping {@link #map} opened. */
    public static void unmap(CudaDevice device, CUdeviceptr mapped) {
        device.bind();
        JCudaDriver.cuIpcCloseMemHandle(mapped);
    }
}
