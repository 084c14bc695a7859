package io.warpdb.exec.cpu.operator;

import io.warpdb.core.exec.ExecContext;
import io.warpdb.exec.cpu.hash.KeyTable;
import io.warpdb.exec.cpu.hash.PartitionOrder;

/**
 * The distinct keys of a join's build side, split by hash into one {@link KeyTable} per worker so
 * that a large build is indexed in parallel (each worker inserts only its partition's rows, no
 * locks) and probes look up one partition. Key ids are global: partition p's local ids are
 * offset by the sizes of the partitions before it, so callers see one dense id space.
 */
final class PartitionedJoinKeys {
    /** Build rows below which one table on one thread is faster than partitioning them. */
    static final int MIN_PARTITIONED_ROWS = 1 << 17;

    private final KeyTable[] tables;
    private final int[] base;
    private final int size;

    private PartitionedJoinKeys(KeyTable[] tables) {
        this.tables = tables;
        this.base = new int[tables.length];
        int total = 0;
        for (int p = 0; p < tables.length; p++) {
            base[p] = total;
            total += tables[p].size();
        }
        this.size = total;
    }

    /**
     * Indexes the rows' key tuples ({@code keys[k][row]}, no NULLs; rows flagged in {@code skip}
     * get id -1) into {@code ids}, on up to {@code context.parallelism()} workers.
     */
    static PartitionedJoinKeys build(long[][] keys, boolean[] skip, int[] ids, ExecContext context) {
        int rows = ids.length;
        int parts = rows < MIN_PARTITIONED_ROWS ? 1 : Math.max(1, context.parallelism());
        boolean[][] noNulls = new boolean[keys.length][];
        int[] hashes = new int[rows];
        int[] partitionOf = new int[rows];
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                hashes[row] = KeyTable.hashOf(keys, noNulls, row);
                partitionOf[row] = PartitionOrder.partition(hashes[row], parts);
            } else {
                ids[row] = -1;
                partitionOf[row] = -1;
            }
        }
        PartitionOrder order = PartitionOrder.of(partitionOf, parts);
        KeyTable[] tables = new KeyTable[parts];
        Workers.runAll(parts, p -> {
            KeyTable table = new KeyTable(keys.length);
            for (int i = order.start(p); i < order.end(p); i++) {
                int row = order.item(i);
                ids[row] = table.addRow(keys, noNulls, row, hashes[row]);
            }
            tables[p] = table;
        });
        PartitionedJoinKeys index = new PartitionedJoinKeys(tables);
        if (parts > 1) {
            for (int p = 1; p < parts; p++) {
                for (int i = order.start(p); i < order.end(p); i++) {
                    ids[order.item(i)] += index.base[p];
                }
            }
        }
        return index;
    }

    /** Distinct keys in all partitions. */
    int size() {
        return size;
    }

    /** The global key id of each probe row's tuple, -1 where it has none or the row is flagged in {@code skip}. */
    void find(long[][] keys, boolean[] skip, int[] ids) {
        boolean[][] noNulls = new boolean[keys.length][];
        int parts = tables.length;
        for (int row = 0; row < ids.length; row++) {
            if (skip != null && skip[row]) {
                ids[row] = -1;
                continue;
            }
            int hash = KeyTable.hashOf(keys, noNulls, row);
            int p = parts == 1 ? 0 : PartitionOrder.partition(hash, parts);
            int local = tables[p].findRow(keys, noNulls, row, hash);
            ids[row] = local < 0 ? -1 : local + base[p];
        }
    }
}
