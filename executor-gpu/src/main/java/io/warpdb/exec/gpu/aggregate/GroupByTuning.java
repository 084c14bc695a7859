package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.runtime.CudaDevice;

/**
 * The group-by parameters, chosen by the rules of Karnagel, Müller and Lohman ("Optimizing
 * GPU-accelerated Group-By and Aggregation", ADMS 2015) from the device's properties, read at run
 * time, and the expected number of groups:
 * <ul>
 * <li>Path: no keys, one group; keys that do not pack into 63 bits, or more than
 * {@link #MAX_HASH_GROUPS} groups (very high cardinality, where each group has few rows and a
 * sort is as cheap as hashing), sort; otherwise the hash table.
 * <li>Hash function: always murmur3 (its 64-bit finalizer): FNV-1a collides on dense key ranges.
 * <li>Table size: while a half-full table would fit the L2 cache, the table takes the L2 size (a
 * lower fill factor at no cache cost); below 2 GB, 50% fill; beyond, 83% fill (the table's own
 * size then costs more than the extra probes).
 * <li>Grid for the insert kernel: NSM blocks of 1024 threads while the table is under 4x L2
 * (many threads hide atomic latency on a cached table); 8 NSM blocks of 64 threads under 2 GB;
 * 8 NSM blocks of 8 threads beyond (fewer concurrent random accesses thrash the TLB less).
 * <li>Accumulation (region I, few groups, is bound by atomics on the same words): up to
 * {@link #REGISTER_MAX_GROUPS} groups (TPC-H q01's four), each thread keeps a partial per group in
 * registers over all its rows and warps merge them once at the end; up to
 * {@link #WARP_MERGE_MAX_GROUPS} groups, each warp merges its rows of a group with shuffles
 * before one lane adds them to the block's state in shared memory; while every block's copy of
 * the state fits {@link #SHARED_STATE_BYTES} of shared memory, rows go to that copy; beyond,
 * straight to the global state.
 * </ul>
 */
final class GroupByTuning {
    /** Beyond this many groups the sort-based path is taken. */
    static final long MAX_HASH_GROUPS = 1L << 27;
    static final long TWO_GB = 2L << 30;
    static final double HIGH_FILL = 0.83;
    /**
     * Up to this many groups a warp merges its rows per group before touching the state;
     * {@code -Dwarpdb.gpu.warpMergeMaxGroups=N} moves the bound for the sweep's measurements.
     */
    static final int WARP_MERGE_MAX_GROUPS = Integer.getInteger("warpdb.gpu.warpMergeMaxGroups", 8);
    /** The most groups accumulate_groups_registers keeps in registers (accumulate.cu's REGISTER_GROUPS). */
    static final int REGISTER_GROUPS = 4;
    /**
     * Up to this many groups (at most {@link #REGISTER_GROUPS}) rows accumulate in registers;
     * {@code -Dwarpdb.gpu.registerMaxGroups=0} leaves them to the warp merge, to compare the two.
     */
    static final int REGISTER_MAX_GROUPS = Math.min(REGISTER_GROUPS, Integer.getInteger("warpdb.gpu.registerMaxGroups", REGISTER_GROUPS));
    /** Shared memory a block's copy of the state may take (the default limit without opting in). */
    static final int SHARED_STATE_BYTES = 48 << 10;

    /** Where rows are added to their group's state. */
    enum Accumulator {
        REGISTERS("accumulate_groups_registers"),
        WARP_MERGED("accumulate_groups_warp"),
        BLOCK_SHARED("accumulate_groups_shared"),
        GLOBAL("accumulate_groups");

        final String kernel;

        Accumulator(String kernel) {
            this.kernel = kernel;
        }
    }

    /** What the rules read of the device. */
    record Device(int smCount, long l2Bytes) {
        static Device of(CudaDevice d) {
            return new Device(d.smCount(), d.l2Bytes());
        }
    }

    /** A hash table's slots, its fill factor at the expected groups, and the insert kernel's grid. */
    record TablePlan(int slots, double fillFactor, int blocks, int threads, String rule) {
    }

    private GroupByTuning() {
    }

    /** @param packing the packed key layout, null when the keys do not fit 63 bits */
    static AggregationPath path(int keyCount, KeyPacking packing) {
        if (keyCount == 0) {
            return AggregationPath.UNGROUPED;
        }
        if (packing != null && packing.groupBound() <= MAX_HASH_GROUPS) {
            return AggregationPath.HASH;
        }
        return AggregationPath.SORT;
    }

    /** The accumulator for {@code groups} groups whose state takes {@code stateBytes} per block copy. */
    static Accumulator accumulator(long groups, long stateBytes) {
        if (stateBytes > SHARED_STATE_BYTES) {
            return Accumulator.GLOBAL;
        }
        return groups <= REGISTER_MAX_GROUPS ? Accumulator.REGISTERS
                : groups <= WARP_MERGE_MAX_GROUPS ? Accumulator.WARP_MERGED : Accumulator.BLOCK_SHARED;
    }

    /** The table for {@code groups} expected groups of {@code slotBytes} bytes per slot. */
    static TablePlan table(long groups, int slotBytes, Device device) {
        return table(groups, slotBytes, device, Long.MAX_VALUE);
    }

    /**
     * As {@link #table(long, int, Device)}, the L2-sized table of few groups bounded by {@code
     * roomBytes} (under a device budget, an out-of-core stream's share, the rows and their outputs
     * need the rest); the half-full table of the expected groups is never cut.
     */
    static TablePlan table(long groups, int slotBytes, Device device, long roomBytes) {
        long expected = Math.max(1, groups);
        long halfFull = 2 * expected;
        long slots;
        String rule;
        if (halfFull * slotBytes < device.l2Bytes()) {
            slots = Math.max(halfFull, Math.min(device.l2Bytes(), roomBytes) / slotBytes);
            rule = "L2-sized table";
        } else if (halfFull * slotBytes < TWO_GB) {
            slots = halfFull;
            rule = "50% fill";
        } else {
            slots = (long) Math.ceil(expected / HIGH_FILL);
            rule = "83% fill";
        }
        slots = Math.min(slots, Integer.MAX_VALUE);
        long tableBytes = slots * slotBytes;
        int blocks;
        int threads;
        if (tableBytes < 4 * device.l2Bytes()) {
            blocks = device.smCount();
            threads = 1024;
        } else if (tableBytes < TWO_GB) {
            blocks = 8 * device.smCount();
            threads = 64;
        } else {
            blocks = 8 * device.smCount();
            threads = 8;
        }
        return new TablePlan((int) slots, (double) expected / slots, blocks, threads, rule);
    }
}
