package io.warpdb.exec.gpu.sort;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;

/**
 * moderngpu's vectorized sorted search and load-balancing search on the GPU (sort/merge_path.cu),
 * both merges of two sorted sequences partitioned by merge path: one kernel splits the merge
 * along diagonals NV items apart, then each block merges its tile from shared memory. The
 * sort-merge join and the set operations are built on them.
 */
public final class SortedSearch {
    private static final String MODULE = "sort/merge_path";
    /** Threads per block and merge items per tile; must match NT and NV in merge_join.cu. */
    private static final int THREADS = 128;
    private static final int TILE = THREADS * 7;

    private SortedSearch() {
    }

    /**
     * For each of the {@code aCount} ascending 64-bit keys in {@code a}, its lower bound (the index
     * of the first key not below it) or upper bound (first key above it) among the {@code bCount}
     * ascending keys in {@code b}; the caller closes the returned int buffer.
     */
    public static DeviceBuffer bounds(DeviceBuffer a, int aCount, DeviceBuffer b, int bCount, boolean lowerBound, DeviceWork work) {
        DeviceBuffer bound = work.allocate((long) aCount * Integer.BYTES, lowerBound ? "lower bounds" : "upper bounds");
        try {
            merge(a, aCount, b, bCount, lowerBound, "sorted_search", bound, work);
            return bound;
        } catch (RuntimeException e) {
            bound.close();
            throw e;
        }
    }

    /**
     * For each of {@code outputs} output rows, the segment it belongs to: the last of the
     * {@code segments} ascending 64-bit starts {@code starts} (an exclusive scan of per-segment
     * output counts) at or before it. Segments with no output are skipped, however the outputs
     * spread over them.
     */
    public static DeviceBuffer segments(int outputs, DeviceBuffer starts, int segments, DeviceWork work) {
        DeviceBuffer segment = work.allocate((long) outputs * Integer.BYTES, "output segments");
        try {
            merge(null, outputs, starts, segments, false, "load_balance", segment, work);
            return segment;
        } catch (RuntimeException e) {
            segment.close();
            throw e;
        }
    }

    /**
     * The 64-bit ordered keys (sort/ordered_key.cuh) of the rows {@code ids[0..count)} of
     * {@code key}'s column, in that order: for rows sorted by the key, an ascending sequence to search.
     */
    public static DeviceBuffer sortedKeys(KeyColumn key, DeviceBuffer ids, int count, DeviceWork work) {
        DeviceBuffer keys = work.allocate(Math.max(1L, count) * Long.BYTES, "sorted keys");
        try {
            Object[] source = key.kernelArguments();
            work.kernel(MODULE, "sorted_keys").launch(work.stream(), GridSize.strided(count, work), GridSize.BLOCK, 0, source[0],
                    source[1], source[2], source[3], ids, count, keys);
            return keys;
        } catch (RuntimeException e) {
            keys.close();
            throw e;
        }
    }

    /** Partitions the merge of a (null: 0, 1, 2, ...) and b, then runs {@code kernel} tile by tile. */
    private static void merge(DeviceBuffer a, int aCount, DeviceBuffer b, int bCount, boolean lowerBound, String kernel,
            DeviceBuffer out, DeviceWork work) {
        if (aCount == 0) {
            return;
        }
        int tiles = (int) (((long) aCount + bCount + TILE - 1) / TILE);
        try (DeviceBuffer partitions = work.allocate((long) (tiles + 1) * Integer.BYTES, "merge path partitions")) {
            work.kernel(MODULE, "merge_partitions").launch(work.stream(), (tiles + 1 + THREADS - 1) / THREADS, THREADS, 0, a, aCount,
                    b, bCount, lowerBound ? 1 : 0, partitions, tiles + 1);
            if (a == null) {
                work.kernel(MODULE, kernel).launch(work.stream(), tiles, THREADS, 0, aCount, b, bCount, partitions, out);
            } else {
                work.kernel(MODULE, kernel).launch(work.stream(), tiles, THREADS, 0, a, aCount, b, bCount, partitions,
                        lowerBound ? 1 : 0, out);
            }
        }
    }
}
