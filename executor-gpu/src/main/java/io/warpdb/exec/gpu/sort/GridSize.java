package io.warpdb.exec.gpu.sort;

import io.warpdb.exec.gpu.runtime.DeviceWork;

/** Launch shapes shared by the sort and aggregation kernels (all use 256-thread blocks). */
public final class GridSize {
    public static final int BLOCK = 256;
    /** Items per tile of the tiled kernels (radix passes, scan): BLOCK threads x 8 items. */
    public static final int TILE = BLOCK * 8;

    private GridSize() {
    }

    /** Blocks of a grid-stride kernel over {@code items}: enough to fill the device, no more than needed. */
    public static int strided(long items, DeviceWork work) {
        long needed = (items + BLOCK - 1) / BLOCK;
        return (int) Math.min(needed, (long) work.device().smCount() * 16);
    }

    /** Tiles covering {@code items}. */
    public static int tiles(long items) {
        return (int) ((items + TILE - 1) / TILE);
    }
}
