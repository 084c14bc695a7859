package io.warpdb.core.exec;

import java.util.ServiceLoader;

/** Holds {@link HostMemory#resident()}: the providers are looked up once, when first asked. */
final class ResidentHostMemory {
    static final HostMemory INSTANCE = ServiceLoader.load(HostMemory.class, HostMemory.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .filter(HostMemory::available)
            .findFirst()
            .orElse(HostMemory.ORDINARY);

    private ResidentHostMemory() {
    }
}
