package io.warpdb.exec.gpu.runtime;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUfunction_attribute;
import jcuda.driver.JCudaDriver;

/** One loaded kernel; {@link #launch} passes Java values as kernel parameters. */
public final class Kernel {
    /** Dynamic shared memory a kernel may take without asking the driver for more. */
    private static final int DEFAULT_DYNAMIC_SHARED_BYTES = 48 * 1024;

    private final String name;
    private final CUfunction function;
    /** The most dynamic shared memory the driver was asked to allow this kernel so far. */
    private volatile int dynamicSharedLimit = DEFAULT_DYNAMIC_SHARED_BYTES;

    Kernel(String name, CUfunction function) {
        this.name = name;
        this.function = function;
    }

    public String name() {
        return name;
    }

    /**
     * Launches a 1-D grid on {@code stream}, timed by the stream's events. Parameters:
     * {@link DeviceBuffer} or CUdeviceptr (an address; null passes 0), Integer, Long, Double.
     * {@code sharedBytes} of dynamic shared memory above 48 KiB are asked of the driver first
     * (up to the device's opt-in limit, 227 KiB on sm_90).
     */
    public void launch(GpuStream stream, int grid, int block, int sharedBytes, Object... args) {
        if (grid <= 0) {
            return;
        }
        allowDynamicShared(sharedBytes);
        Pointer[] params = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = parameter(args[i]);
        }
        stream.beginKernel();
        JCudaDriver.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, sharedBytes, stream.handle(), Pointer.to(params), null);
        stream.endKernel();
    }

    /**
     * How many blocks of {@code block} threads, each with {@code sharedBytes} of dynamic shared
     * memory, one SM holds at once (registers, shared memory and threads considered); at least 1.
     */
    public int residentBlocksPerSm(int block, int sharedBytes) {
        allowDynamicShared(sharedBytes);
        int[] blocks = new int[1];
        JCudaDriver.cuOccupancyMaxActiveBlocksPerMultiprocessor(blocks, function, block, sharedBytes);
        return Math.max(1, blocks[0]);
    }

    /** Asks the driver to let this kernel take {@code sharedBytes} of dynamic shared memory where that is over the default. */
    private void allowDynamicShared(int sharedBytes) {
        if (sharedBytes > dynamicSharedLimit) {
            synchronized (this) {
                if (sharedBytes > dynamicSharedLimit) {
                    JCudaDriver.cuFuncSetAttribute(function, CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                            sharedBytes);
                    dynamicSharedLimit = sharedBytes;
                }
            }
        }
    }

    private Pointer parameter(Object arg) {
        if (arg == null) {
            return Pointer.to(new long[] {0});
        } else if (arg instanceof DeviceBuffer b) {
            return Pointer.to(new long[] {b.address()});
        } else if (arg instanceof CUdeviceptr p) {
            return Pointer.to(p);
        } else if (arg instanceof Integer v) {
            return Pointer.to(new int[] {v});
        } else if (arg instanceof Long v) {
            return Pointer.to(new long[] {v});
        } else if (arg instanceof Double v) {
            return Pointer.to(new double[] {v});
        }
        throw new IllegalArgumentException("kernel " + name + ": unsupported parameter " + arg.getClass());
    }

}
