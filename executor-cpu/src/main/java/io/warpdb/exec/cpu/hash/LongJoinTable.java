package io.warpdb.exec.cpu.hash;

import io.warpdb.exec.cpu.TaskRunner;

/**
 * The build side of a hash join on one key, indexed for probes that cost one cache miss: open
 * addressing with linear probing over slots that hold the key and, next to it, where the key's
 * build rows are, so a probe never visits a separate key array. When every key is unique (a join
 * on a primary key, the common case) the slot holds the build row itself; otherwise it holds the
 * range of the key's rows in {@link #rowsByKey()}, in build order. Large builds are split by hash
 * into partitions indexed in parallel, each a table of its own.
 */
public final class LongJoinTable {
    /** Build rows below which one partition indexed on one thread is faster. */
    public static final int MIN_PARTITIONED_ROWS = 1 << 17;

    /** Per partition: slot s is (table[2s] = key, table[2s + 1] = count << 32 | row or start); 0 payload: empty. */
    private final long[][] tables;
    private final int[] masks;
    /** Build rows grouped by key, or null when every key has one row. */
    private final int[] rowsByKey;

    private LongJoinTable(long[][] tables, int[] rowsByKey) {
        this.tables = tables;
        this.masks = new int[tables.length];
        for (int p = 0; p < tables.length; p++) {
            masks[p] = tables[p].length / 2 - 1;
        }
        this.rowsByKey = rowsByKey;
    }

    /**
     * Indexes {@code keys} (rows flagged in {@code skip}, which may be null, join nothing) on up
     * to {@code parallelism} workers.
     */
    public static LongJoinTable build(long[] keys, boolean[] skip, int parallelism, TaskRunner workers) {
        int rows = keys.length;
        int parts = rows < MIN_PARTITIONED_ROWS ? 1 : Math.max(1, parallelism);
        int[] hashes = new int[rows];
        int[] start = new int[parts + 1];
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                hashes[row] = hash(keys[row]);
                start[partition(hashes[row], parts) + 1]++;
            }
        }
        for (int p = 0; p < parts; p++) {
            start[p + 1] += start[p];
        }
        // Rows of partition p, ascending: rowsByPartition[start[p] .. start[p + 1]).
        int[] rowsByPartition = new int[start[parts]];
        int[] next = start.clone();
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                rowsByPartition[next[partition(hashes[row], parts)]++] = row;
            }
        }
        long[][] tables = new long[parts][];
        int[] slotOfRow = new int[rows];
        boolean[] duplicates = new boolean[parts];
        workers.runAll(parts, p -> {
            int count = start[p + 1] - start[p];
            int capacity = Integer.highestOneBit(Math.max(4, count) * 2 - 1) << 1;
            long[] table = new long[capacity * 2];
            int mask = capacity - 1;
            for (int i = start[p]; i < start[p + 1]; i++) {
                int row = rowsByPartition[i];
                int slot = hashes[row] & mask;
                while (table[2 * slot + 1] != 0 && table[2 * slot] != keys[row]) {
                    slot = (slot + 1) & mask;
                }
                if (table[2 * slot + 1] == 0) {
                    table[2 * slot] = keys[row];
                    table[2 * slot + 1] = 1L << 32 | row;
                } else {
                    table[2 * slot + 1] += 1L << 32;
                    duplicates[p] = true;
                }
                slotOfRow[row] = slot;
            }
            tables[p] = table;
        });
        boolean anyDuplicate = false;
        for (boolean d : duplicates) {
            anyDuplicate |= d;
        }
        if (!anyDuplicate) {
            return new LongJoinTable(tables, null);
        }
        return new LongJoinTable(tables, groupRows(tables, rowsByPartition, start, slotOfRow));
    }

    /**
     * Turns each slot's payload into the start of its key's rows in the returned array (the keys'
     * ranges laid out slot by slot, partition by partition) and fills those ranges in build order.
     */
    private static int[] groupRows(long[][] tables, int[] rowsByPartition, int[] start, int[] slotOfRow) {
        int[] rowsByKey = new int[rowsByPartition.length];
        int position = 0;
        for (long[] table : tables) {
            for (int s = 1; s < table.length; s += 2) {
                if (table[s] != 0) {
                    table[s] = (table[s] & 0xffffffff00000000L) | position;
                    position += (int) (table[s] >>> 32);
                }
            }
        }
        for (int p = 0; p < tables.length; p++) {
            long[] table = tables[p];
            for (int i = start[p]; i < start[p + 1]; i++) {
                int row = rowsByPartition[i];
                int s = 2 * slotOfRow[row] + 1;
                rowsByKey[(int) table[s]] = row;
                table[s]++; // the next row of this key goes after it
            }
            for (int s = 1; s < table.length; s += 2) {
                if (table[s] != 0) {
                    table[s] -= table[s] >>> 32; // back to the start
                }
            }
        }
        return rowsByKey;
    }

    /**
     * For each probe row, where its matches are: {@code counts[i]} build rows from position
     * {@code starts[i]} on (see {@link #buildRow}); rows flagged in {@code skip} (may be null)
     * and rows whose key is absent get count 0.
     */
    public void probe(long[] keys, boolean[] skip, int[] starts, int[] counts) {
        int parts = tables.length;
        for (int row = 0; row < keys.length; row++) {
            counts[row] = 0;
            if (skip != null && skip[row]) {
                continue;
            }
            long key = keys[row];
            int h = hash(key);
            int p = parts == 1 ? 0 : partition(h, parts);
            long[] table = tables[p];
            int mask = masks[p];
            int slot = h & mask;
            long payload;
            while ((payload = table[2 * slot + 1]) != 0) {
                if (table[2 * slot] == key) {
                    starts[row] = (int) payload;
                    counts[row] = (int) (payload >>> 32);
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /** The build row at a position of a match range. */
    public int buildRow(int position) {
        return rowsByKey == null ? position : rowsByKey[position];
    }

    /** The hash {@link KeyTable#hashOf} gives a single non-NULL key. */
    private static int hash(long key) {
        long h = KeyTable.mix(key);
        return (int) (h ^ (h >>> 32));
    }

    /** The partition of a hash, from its high bits (the slots use the low ones). */
    private static int partition(int hash, int parts) {
        return (int) (((hash & 0xffffffffL) * parts) >>> 32);
    }
}
