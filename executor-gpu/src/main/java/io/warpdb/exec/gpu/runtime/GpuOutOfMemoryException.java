package io.warpdb.exec.gpu.runtime;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;

/**
 * The device pool could not satisfy an allocation even after evicting cached columns. The GPU
 * executor catches it and reruns the node on the CPU; it reaches a user only if that fails too.
 */
public final class GpuOutOfMemoryException extends WarpException {
    private static final long serialVersionUID = 1L;

    public GpuOutOfMemoryException(String message) {
        super(SqlState.OUT_OF_MEMORY, message);
    }
}
