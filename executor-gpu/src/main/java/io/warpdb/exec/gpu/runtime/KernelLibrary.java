package io.warpdb.exec.gpu.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

/**
 * Loads the fatbins the build compiled from {@code src/main/cuda/<area>/<file>.cu} (classpath
 * {@code /cuda/<area>/<file>.fatbin}) with {@code cuModuleLoadData}, once each, and hands out
 * their kernels by name. The driver picks the sm_90 code or JITs the embedded PTX.
 */
public final class KernelLibrary {
    static final String RESOURCE_ROOT = "/cuda/";

    private final CudaDevice device;
    private final Map<String, CUmodule> modules = new ConcurrentHashMap<>();
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();

    KernelLibrary(CudaDevice device) {
        this.device = device;
    }

    /** The {@code extern "C"} kernel {@code function} of {@code cuda/<module>.cu}, e.g. ("select/filter_project", "count"). */
    public Kernel kernel(String module, String function) {
        return kernels.computeIfAbsent(module + "#" + function, key -> {
            CUfunction f = new CUfunction();
            JCudaDriver.cuModuleGetFunction(f, modules.computeIfAbsent(module, this::load), function);
            return new Kernel(module + "." + function, f);
        });
    }

    private CUmodule load(String module) {
        String resource = RESOURCE_ROOT + module + ".fatbin";
        try (InputStream in = KernelLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("kernel module " + resource + " is not in the jar");
            }
            device.bind();
            CUmodule m = new CUmodule();
            JCudaDriver.cuModuleLoadData(m, in.readAllBytes());
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
