package io.warpdb.exec.gpu.decode;

import java.util.Map;

/**
 * A device address known before the buffers exist: a region of a column's decoding and a byte
 * offset in it. Tasks are planned with these and written out once the regions are allocated.
 */
record Location(Region region, long offset) {
    /** The device buffers one column's decoding uses. */
    enum Region {
        /** Slices of the chunks' bytes as stored (those the tasks read), each at an 8-byte aligned offset. */
        CHUNKS,
        /** Decoded intermediate streams and run ends, int64 each. */
        SCRATCH,
        /** String code maps into the merged dictionary, int32 each. */
        CODE_MAPS,
        /** The column's values. */
        VALUES,
        /** The column's validity bytes. */
        VALIDITY
    }

    long address(Map<Region, Long> bases) {
        Long base = bases.get(region);
        if (base == null) {
            throw new IllegalStateException("no " + region + " buffer was allocated, yet a task uses it");
        }
        return base + offset;
    }
}
