package io.warpdb.core.exec;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Where tables keep the bytes they hold resident on the host (in-memory tables' encoded chunks).
 * An executor whose device copies them offers page-locked memory through {@link java.util.ServiceLoader}:
 * a GPU's copy engine reads such memory in place, at several times the rate of pageable memory,
 * which would first be staged through a pinned buffer on every copy. Without an available
 * provider, tables use Arrow's ordinary off-heap memory.
 */
public interface HostMemory {
    /** Whether this provider can allocate on this machine (its device is present). */
    boolean available();

    /** {@code bytes} of memory charged to {@code allocator}; releasing the buffer frees them. */
    ArrowBuf allocate(BufferAllocator allocator, long bytes);

    /** Arrow's own off-heap memory. */
    HostMemory ORDINARY = new HostMemory() {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public ArrowBuf allocate(BufferAllocator allocator, long bytes) {
            return allocator.buffer(bytes);
        }
    };

    /** The first available provider on the class path, else {@link #ORDINARY}; looked up once. */
    static HostMemory resident() {
        return ResidentHostMemory.INSTANCE;
    }
}
