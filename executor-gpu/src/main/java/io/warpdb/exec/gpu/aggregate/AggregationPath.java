package io.warpdb.exec.gpu.aggregate;

/** How {@link GpuAggregate} finds the groups. */
enum AggregationPath {
    /** No GROUP BY: block reductions into one group. */
    UNGROUPED,
    /** Keys packed into 63 bits, grouped in an open-addressing hash table. */
    HASH,
    /** Rows sorted by their keys, groups where the keys change. */
    SORT
}
