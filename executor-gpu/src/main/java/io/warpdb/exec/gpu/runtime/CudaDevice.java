package io.warpdb.exec.gpu.runtime;

import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE;
import static jcuda.driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT;

import io.warpdb.core.exec.Support;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

/**
 * One CUDA device the GPU executor uses: its primary context, its properties, the kernels loaded
 * into that context, its memory pool and pinned staging. The devices are chosen once per JVM on
 * first use ({@link DeviceSelection}: {@code -Dwarpdb.gpu.devices}, else every visible one);
 * {@link #get()} is the first, on which in-core work runs, and {@link #devices()} all of them,
 * over which out-of-core work is dealt. If the driver, a device or the kernels are missing,
 * {@link #availability()} says which.
 */
public final class CudaDevice {
    /** Bytes of device memory the pool may take: {@code warpdb.gpu.memory} (e.g. {@code 8g}), else 80% of free memory. */
    public static final String MEMORY_PROPERTY = "warpdb.gpu.memory";

    private static final Object LOCK = new Object();
    private static volatile List<CudaDevice> instances;
    private static volatile Support availability;

    private final CUcontext context;
    private final CUdevice device;
    private final int ordinal;
    private final String name;
    private final int smCount;
    private final int l2Bytes;
    private final int computeCapability;
    private final long totalMemory;
    private final KernelLibrary kernels;
    private final DevicePool pool;
    private PinnedStaging staging;

    private CudaDevice(int ordinal, CUdevice device, CUcontext context) {
        this.context = context;
        this.device = device;
        this.ordinal = ordinal;
        byte[] nameBytes = new byte[256];
        JCudaDriver.cuDeviceGetName(nameBytes, nameBytes.length, device);
        int end = 0;
        while (end < nameBytes.length && nameBytes[end] != 0) {
            end++;
        }
        this.name = new String(nameBytes, 0, end, StandardCharsets.US_ASCII);
        this.smCount = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
        this.l2Bytes = attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        this.computeCapability = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10
                + attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
        long[] free = new long[1];
        long[] total = new long[1];
        JCudaDriver.cuMemGetInfo(free, total);
        this.totalMemory = total[0];
        this.kernels = new KernelLibrary(this);
        this.pool = new DevicePool(this, poolCapacity(free[0]));
    }

    /** Whether a CUDA device, its driver and the compiled kernels are present; the reason when not. */
    public static Support availability() {
        if (availability == null) {
            synchronized (LOCK) {
                if (availability == null) {
                    availability = probe();
                }
            }
        }
        return availability;
    }

    /** The first device (in-core work runs there); call only when {@link #availability()} is supported. */
    public static CudaDevice get() {
        return devices().get(0);
    }

    /** Every device the executor uses, the first first; call only when {@link #availability()} is supported. */
    public static List<CudaDevice> devices() {
        Support s = availability();
        if (!s.supported()) {
            throw new IllegalStateException("no usable CUDA device: " + s.reason());
        }
        return instances;
    }

    private static Support probe() {
        String missingKernels = readUnavailableMarker();
        if (missingKernels != null) {
            return Support.no(missingKernels);
        }
        if (CudaDevice.class.getResource(KernelLibrary.RESOURCE_ROOT + "select/filter_project.fatbin") == null) {
            return Support.no("the kernels were not built into this jar (executor-gpu was compiled without nvcc)");
        }
        try {
            JCudaDriver.setExceptionsEnabled(true);
            JCudaDriver.cuInit(0);
            int[] count = new int[1];
            JCudaDriver.cuDeviceGetCount(count);
            List<Integer> ordinals;
            try {
                ordinals = DeviceSelection.configured(count[0]);
            } catch (IllegalArgumentException e) {
                return Support.no(e.getMessage());
            }
            List<CudaDevice> opened = new ArrayList<>(ordinals.size());
            for (int ordinal : ordinals) {
                CUdevice device = new CUdevice();
                JCudaDriver.cuDeviceGet(device, ordinal);
                CUcontext context = new CUcontext();
                JCudaDriver.cuDevicePrimaryCtxRetain(context, device);
                JCudaDriver.cuCtxSetCurrent(context);
                opened.add(new CudaDevice(ordinal, device, context));
            }
            opened.get(0).bind();
            instances = List.copyOf(opened);
            return Support.YES;
        } catch (Throwable e) {
            // UnsatisfiedLinkError without libcuda, CudaException without a device or driver.
            return Support.no("CUDA driver not usable: " + e);
        }
    }

    private static String readUnavailableMarker() {
        try (InputStream in = CudaDevice.class.getResourceAsStream(KernelLibrary.RESOURCE_ROOT + "UNAVAILABLE")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static int attribute(CUdevice device, int attribute) {
        int[] value = new int[1];
        JCudaDriver.cuDeviceGetAttribute(value, attribute, device);
        return value[0];
    }

    private static long poolCapacity(long freeBytes) {
        String configured = System.getProperty(MEMORY_PROPERTY);
        long fallback = freeBytes / 10 * 8;
        return configured == null ? fallback : Math.min(parseBytes(configured), freeBytes);
    }

    /** "512m", "8g", "1048576" as bytes. */
    static long parseBytes(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = switch (t.charAt(t.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }

    /** Makes the device's context current on the calling thread (every entry point does this). */
    public void bind() {
        JCudaDriver.cuCtxSetCurrent(context);
    }

    /** The device's primary context (peer copies name both ends' contexts). */
    CUcontext context() {
        return context;
    }

    public String name() {
        return name;
    }

    /** The device's ordinal among the visible devices. */
    public int ordinal() {
        return ordinal;
    }

    /** How EXPLAIN ANALYZE names the device: {@code gpu<ordinal>}. */
    public String label() {
        return "gpu" + ordinal;
    }

    /** The device's PCI bus id ({@code 0000:1b:00.0}), by which processes of one host name it alike. */
    public String pciBusId() {
        String[] id = new String[1];
        JCudaDriver.cuDeviceGetPCIBusId(id, 32, device);
        return id[0].trim();
    }

    /**
     * Whether this device can read the memory of the device at {@code pciBusId} directly (itself, or
     * a peer with peer access); false for a device this process cannot see.
     */
    public boolean canAccess(String pciBusId) {
        if (pciBusId.equalsIgnoreCase(pciBusId())) {
            return true;
        }
        try {
            CUdevice peer = new CUdevice();
            JCudaDriver.cuDeviceGetByPCIBusId(peer, pciBusId);
            int[] can = new int[1];
            JCudaDriver.cuDeviceCanAccessPeer(can, device, peer);
            return can[0] == 1;
        } catch (jcuda.CudaException e) {
            return false;
        }
    }

    public int smCount() {
        return smCount;
    }

    public int l2Bytes() {
        return l2Bytes;
    }

    public int computeCapability() {
        return computeCapability;
    }

    public long totalMemory() {
        return totalMemory;
    }

    public KernelLibrary kernels() {
        return kernels;
    }

    public DevicePool pool() {
        return pool;
    }

    /** The pinned buffers all transfers go through (lock it for the length of a transfer). */
    public synchronized PinnedStaging staging() {
        if (staging == null) {
            staging = new PinnedStaging(this);
        }
        return staging;
    }

    @Override
    public String toString() {
        return label() + ": " + name + " (sm_" + computeCapability + ", " + smCount + " SMs, L2 " + (l2Bytes >> 20) + " MiB, "
                + (totalMemory >> 20) + " MiB)";
    }
}
