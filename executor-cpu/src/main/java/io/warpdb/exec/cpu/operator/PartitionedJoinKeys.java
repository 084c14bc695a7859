package io.warpdb.exec.cpu.operator;

import io.warpdb.core.exec.ExecContext;
import io.warpdb.exec.cpu.hash.KeyTable;

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
        // Rows of partition p are rowsByPartition[start[p] .. start[p + 1]): a counting sort by partition.
        int[] start = new int[parts + 1];
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                hashes[row] = KeyTable.hashOf(keys, noNulls, row);
                start[partition(hashes[row], parts) + 1]++;
            }
        }
        for (int p = 0; p < parts; p++) {
            start[p + 1] += start[p];
        }
        int[] rowsByPartition = new int[start[parts]];
        int[] next = start.clone();
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                rowsByPartition[next[partition(hashes[row], parts)]++] = row;
            } else {
                ids[row] = -1;
            }
        }
        KeyTable[] tables = new KeyTable[parts];
        Workers.runAll(parts, p -> {
            KeyTable table = new KeyTable(keys.length);
            for (int i = start[p]; i < start[p + 1]; i++) {
                int row = rowsByPartition[i];
                ids[row] = table.addRow(keys, noNulls, row, hashes[row]);
            }
            tables[p] = table;
        });
        PartitionedJoinKeys index = new PartitionedJoinKeys(tables);
        if (parts > 1) {
            for (int p = 1; p < parts; p++) {
                for (int i = start[p]; i < start[p + 1]; i++) {
                    ids[rowsByPartition[i]] += index.base[p];
                }
            }
        }
        return index;
    }

    /** The partition of a hash, from its high bits (the tables' slots use the low ones). */
    private static int partition(int hash, int parts) {
        return (int) (((hash & 0xffffffffL) * parts) >>> 32);
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
            int p = parts == 1 ? 0 : partition(hash, parts);
            int local = tables[p].findRow(keys, noNulls, row, hash);
            ids[row] = local < 0 ? -1 : local + base[p];
        }
    }
}
