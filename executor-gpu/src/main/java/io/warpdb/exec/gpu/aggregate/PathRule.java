package io.warpdb.exec.gpu.aggregate;

/**
 * Chooses the aggregation path. Without keys there is one group. Keys that pack into 63 bits go
 * to the hash table while the table (two slots per possible group, a power of two) stays small
 * enough to live comfortably in device memory; otherwise, and for unpackable keys, the rows are
 * sorted. The thresholds are deliberately simple; tuning by L2 size and group count (Karnagel
 * et al.) comes with the group-by tuner.
 */
final class PathRule {
    /** Most possible groups the hash path takes: 2^24 groups, a table of 2^25 slots (~400 MiB of state). */
    static final long MAX_HASH_GROUPS = 1L << 24;

    private PathRule() {
    }

    /** @param packing the packed key layout, null when the keys do not fit 63 bits */
    static AggregationPath choose(int keyCount, KeyPacking packing) {
        if (keyCount == 0) {
            return AggregationPath.UNGROUPED;
        }
        if (packing != null && packing.groupBound() <= MAX_HASH_GROUPS) {
            return AggregationPath.HASH;
        }
        return AggregationPath.SORT;
    }
}
