package io.warpdb.exec.cpu.aggregate;

/**
 * An accumulator whose state from separate parts of the input combines into the state of the
 * whole: the workers of a parallel aggregation each fill their own, and these are merged.
 */
public interface MergeableAccumulator extends Accumulator {
    /**
     * Adds the state of {@code partial} (an accumulator of the same call, fed other rows): its
     * group g goes into this accumulator's group {@code groupIds[g]}, all ids below {@code groupCount};
     * a negative id leaves group g out (another worker merges it into its own hash partition).
     * Only reads {@code partial}: several workers merge from the same partial at once.
     */
    void merge(MergeableAccumulator partial, int[] groupIds, int groupCount);
}
