package io.warpdb.exec.gpu.testing;

import io.warpdb.core.exec.Support;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;

/** Skipping GPU tests on machines without a usable device, saying why once. */
public final class GpuTests {
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private GpuTests() {
    }

    /** Aborts (skips) the calling test unless a CUDA device and the kernels are usable. */
    public static void assumeGpu() {
        Support availability = CudaDevice.availability();
        if (!availability.supported() && REPORTED.compareAndSet(false, true)) {
            System.out.println("GPU tests skipped: " + availability.reason());
        }
        Assumptions.assumeTrue(availability.supported(), () -> "no GPU: " + availability.reason());
    }

    /** Whether a device is usable (for leak checks that must not start one). */
    public static boolean gpuAvailable() {
        return CudaDevice.availability().supported();
    }
}
