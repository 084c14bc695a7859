package io.warpdb.exec.cpu.hash;

import io.warpdb.exec.cpu.TaskRunner;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The build side of a hash join on one key, indexed for probes that cost one cache miss: open
 * addressing with linear probing over slots that hold the key and, next to it, where the key's
 * build rows are, so a probe never visits a separate key array. When every key is unique (a join
 * on a primary key, the common case) the slot holds the build row itself; otherwise it holds the
 * range of the key's rows in {@link #rowsByKey}, in build order. Large builds are split by hash
 * into partitions indexed in parallel, each a table of its own.
 *
 * <p>Most probes of a selective join find nothing (TPC-H Q3: 3.2 M lineitem rows, 30 K matches),
 * and a table of a few hundred thousand keys lies beyond the caches. So a bitmap small enough to
 * stay cached answers them first: one bit per value of the keys' range when the keys are dense
 * enough (exact), else one bit per hash bucket, 8 buckets per key (about 1 probe in 8 of the
 * absent keys passes); only probes whose bit is set visit the table.
 *
 * <p>Unique keys that fill at least a quarter of their range (primary keys: TPC-H's customers,
 * suppliers, parts, all orders) skip the hash table: an array indexed by key minus the smallest
 * holds each key's row, 4 bytes per value of the range where the slots take 32 to 64 per key,
 * and a probe reads it without hashing (Q13 probes 150 K customers with 1.5 M orders).
 */
public final class LongJoinTable {
    /** Build rows below which one partition indexed on one thread is faster. */
    public static final int MIN_PARTITIONED_ROWS = 1 << 17;

    /** Values of the keys' range per key up to which unique keys are indexed directly. */
    private static final long MAX_DIRECT_RANGE_PER_KEY = 4;

    /** Per partition: slot s is (table[2s] = key, table[2s + 1] = count << 32 | row or start); 0 payload: empty. */
    private final long[][] tables;
    /** With unique keys dense in their range: the row of key (filterBase + i) at i, -1 for none; else null. */
    private final int[] direct;
    private final int[] masks;
    /** Build rows grouped by key, or null when every key has one row. */
    private final int[] rowsByKey;
    /**
     * The probe filter: bit (key - filterBase), below filterRange, when dense, else bit
     * (key * {@link Filter#MULTIPLIER}) >>> filterShift.
     */
    private final long[] filterBits;
    private final boolean denseFilter;
    private final long filterBase;
    private final long filterRange;
    private final int filterShift;

    private LongJoinTable(long[][] tables, int[] direct, int[] rowsByKey, Filter filter) {
        this.tables = tables;
        this.direct = direct;
        this.filterBits = filter.bits;
        this.denseFilter = filter.dense;
        this.filterBase = filter.base;
        this.filterRange = filter.range;
        this.filterShift = filter.shift;
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
        int[] direct = directRows(keys, skip, keys.length < MIN_PARTITIONED_ROWS ? 1 : Math.max(1, parallelism), workers);
        if (direct != null) {
            return new LongJoinTable(new long[0][], direct, null, Filter.of(keys, indexedRows(skip, keys.length)));
        }
        int rows = keys.length;
        int parts = rows < MIN_PARTITIONED_ROWS ? 1 : Math.max(1, parallelism);
        int[] hashes = new int[rows];
        // The rows are hashed and partitioned in parallel too, one range of rows per worker (as
        // many as partitions): serial, these passes over a build of 15 M orders (TPC-H Q9 at SF 10)
        // took as long as the parallel inserts.
        int rangeRows = (rows + parts - 1) / parts;
        int[][] rangeCounts = new int[parts][parts];
        workers.runAll(parts, r -> {
            int[] counts = rangeCounts[r];
            for (int row = r * rangeRows, end = Math.min(rows, row + rangeRows); row < end; row++) {
                if (skip == null || !skip[row]) {
                    hashes[row] = hash(keys[row]);
                    counts[partition(hashes[row], parts)]++;
                }
            }
        });
        // Range r's rows of partition p go from rangeStart[r][p] on, after those of earlier ranges.
        int[] start = new int[parts + 1];
        int[][] rangeStart = new int[parts][parts];
        int at = 0;
        for (int p = 0; p < parts; p++) {
            start[p] = at;
            for (int r = 0; r < parts; r++) {
                rangeStart[r][p] = at;
                at += rangeCounts[r][p];
            }
        }
        start[parts] = at;
        // Rows of partition p, ascending: rowsByPartition[start[p] .. start[p + 1]).
        int[] rowsByPartition = new int[at];
        workers.runAll(parts, r -> {
            int[] next = rangeStart[r];
            for (int row = r * rangeRows, end = Math.min(rows, row + rangeRows); row < end; row++) {
                if (skip == null || !skip[row]) {
                    rowsByPartition[next[partition(hashes[row], parts)]++] = row;
                }
            }
        });
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
        Filter filter = Filter.of(keys, rowsByPartition);
        return new LongJoinTable(tables, null, anyDuplicate ? groupRows(tables, rowsByPartition, start, slotOfRow, workers) : null,
                filter);
    }

    /**
     * The row of each key by its offset from the smallest, when the indexed keys are unique and
     * span at most {@link #MAX_DIRECT_RANGE_PER_KEY} values per key; else null. Done in
     * {@code ranges} ranges of rows on the workers (TPC-H's 15 M order keys at SF 10 span 60 M
     * entries, which one thread filled while the others waited).
     */
    private static int[] directRows(long[] keys, boolean[] skip, int ranges, TaskRunner workers) {
        int rangeRows = (keys.length + ranges - 1) / ranges;
        long[] mins = new long[ranges];
        long[] maxes = new long[ranges];
        int[] counts = new int[ranges];
        workers.runAll(ranges, r -> {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            int count = 0;
            for (int row = r * rangeRows, end = Math.min(keys.length, row + rangeRows); row < end; row++) {
                if (skip == null || !skip[row]) {
                    min = Math.min(min, keys[row]);
                    max = Math.max(max, keys[row]);
                    count++;
                }
            }
            mins[r] = min;
            maxes[r] = max;
            counts[r] = count;
        });
        long min = Arrays.stream(mins).min().orElse(Long.MAX_VALUE);
        long max = Arrays.stream(maxes).max().orElse(Long.MIN_VALUE);
        int count = Arrays.stream(counts).sum();
        long range = max - min + 1; // overflows to <= 0 for huge ranges
        if (count == 0 || range <= 0 || range > MAX_DIRECT_RANGE_PER_KEY * count || range > Integer.MAX_VALUE - 8) {
            return null;
        }
        int[] direct = new int[(int) range];
        int fillChunk = (int) ((range + ranges - 1) / ranges);
        workers.runAll(ranges, r -> Arrays.fill(direct, Math.min(direct.length, r * fillChunk),
                Math.min(direct.length, (r + 1) * fillChunk), -1));
        boolean[] duplicate = new boolean[ranges];
        workers.runAll(ranges, r -> {
            for (int row = r * rangeRows, end = Math.min(keys.length, row + rangeRows); row < end; row++) {
                if (skip == null || !skip[row]) {
                    int offset = (int) (keys[row] - min);
                    if (direct[offset] >= 0) {
                        duplicate[r] = true; // a duplicate key
                        return;
                    }
                    direct[offset] = row;
                }
            }
        });
        for (boolean d : duplicate) {
            if (d) {
                return null;
            }
        }
        // Equal keys of two ranges may both have found their entry empty: then fewer entries are filled than keys indexed.
        int[] filled = new int[ranges];
        if (ranges > 1) {
            workers.runAll(ranges, r -> {
                int n = 0;
                for (int i = Math.min(direct.length, r * fillChunk), end = Math.min(direct.length, (r + 1) * fillChunk); i < end; i++) {
                    n += direct[i] >= 0 ? 1 : 0;
                }
                filled[r] = n;
            });
            if (Arrays.stream(filled).sum() != count) {
                return null;
            }
        }
        return direct;
    }

    /** The rows not flagged in {@code skip} (may be null), ascending. */
    private static int[] indexedRows(boolean[] skip, int rows) {
        int[] indexed = new int[rows];
        int count = 0;
        for (int row = 0; row < rows; row++) {
            if (skip == null || !skip[row]) {
                indexed[count++] = row;
            }
        }
        return Arrays.copyOf(indexed, count);
    }

    /** The bits of the probe filter and how probes index them. */
    private record Filter(long[] bits, boolean dense, long base, long range, int shift) {
        /**
         * The hashed filter's bit of a key is the top bits of key x this odd constant (Fibonacci
         * hashing): one multiplication, where the table's hash takes two and three shifts, since
         * the filter is tested on every scanned row (a key that passes is hashed for the table after).
         */
        static final long MULTIPLIER = 0x9E3779B97F4A7C15L;

        /**
         * Dense when the keys' range needs at most this many bits per key (8 bytes, less than a
         * hash slot) or at most {@link #ALWAYS_DENSE_BITS}. A dense filter is exact, and keys
         * scanned in order (lineitem's by l_orderkey) read its words in order: TPC-H Q5's 228 K
         * orders of 1994 span 6 M keys, 26 bits per key, and the hashed filter let through 1 in 9
         * of the absent keys, each then looked up in the table.
         */
        private static final long MAX_DENSE_BITS_PER_KEY = 64;
        /** A dense filter of up to 32 KB stays in the cache whatever the keys. */
        private static final long ALWAYS_DENSE_BITS = 1L << 18;
        private static final int HASHED_BITS_PER_KEY = 8;

        static Filter of(long[] keys, int[] indexedRows) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int row : indexedRows) {
                min = Math.min(min, keys[row]);
                max = Math.max(max, keys[row]);
            }
            int count = indexedRows.length;
            long range = max - min + 1; // overflows to <= 0 for huge ranges, which are not dense
            if (count > 0 && range > 0 && range <= Math.max(ALWAYS_DENSE_BITS, MAX_DENSE_BITS_PER_KEY * count)) {
                long[] bits = new long[(int) ((range + 63) >>> 6)];
                for (int row : indexedRows) {
                    long offset = keys[row] - min;
                    bits[(int) (offset >>> 6)] |= 1L << offset;
                }
                return new Filter(bits, true, min, range, 0);
            }
            long size = Long.highestOneBit(Math.max(64L, (long) count * HASHED_BITS_PER_KEY) * 2 - 1);
            long[] bits = new long[(int) (size >>> 6)];
            int shift = 64 - Long.numberOfTrailingZeros(size);
            for (int row : indexedRows) {
                long bit = keys[row] * MULTIPLIER >>> shift;
                bits[(int) (bit >>> 6)] |= 1L << bit;
            }
            return new Filter(bits, false, 0, size, shift);
        }
    }

    /**
     * Turns each slot's payload into the start of its key's rows in the returned array (the keys'
     * ranges laid out slot by slot, partition by partition: partition p's fill [start[p],
     * start[p + 1])) and fills those ranges in build order; one worker per partition.
     */
    private static int[] groupRows(long[][] tables, int[] rowsByPartition, int[] start, int[] slotOfRow, TaskRunner workers) {
        int[] rowsByKey = new int[rowsByPartition.length];
        workers.runAll(tables.length, p -> {
            long[] table = tables[p];
            int position = start[p];
            for (int s = 1; s < table.length; s += 2) {
                if (table[s] != 0) {
                    table[s] = (table[s] & 0xffffffff00000000L) | position;
                    position += (int) (table[s] >>> 32);
                }
            }
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
        });
        return rowsByKey;
    }

    /**
     * For each probe row, where its matches are: {@code counts[i]} build rows from position
     * {@code starts[i]} on (see {@link #buildRow}); rows flagged in {@code skip} (may be null)
     * and rows whose key is absent get count 0.
     */
    public void probe(long[] keys, boolean[] skip, int[] starts, int[] counts) {
        if (direct != null) {
            probeDirect(keys, skip, starts, counts);
            return;
        }
        // Probes go in groups: first the slots of every row of the group that passes the filter,
        // then one load per slot in a loop of independent loads, so that their cache misses overlap
        // instead of queueing one behind the other; then each row walks on from its slot.
        int[] candidates = new int[PROBE_GROUP];
        int[] slots = new int[PROBE_GROUP];
        int[] partitions = new int[PROBE_GROUP];
        long[] payloads = new long[PROBE_GROUP];
        for (int from = 0; from < keys.length; from += PROBE_GROUP) {
            int to = Math.min(keys.length, from + PROBE_GROUP);
            int group = 0;
            for (int row = from; row < to; row++) {
                counts[row] = 0;
                long passing = passingHash(keys[row], skip != null && skip[row]);
                if (passing != REJECTED) {
                    int h = (int) passing;
                    int p = tables.length == 1 ? 0 : partition(h, tables.length);
                    candidates[group] = row;
                    partitions[group] = p;
                    slots[group++] = h & masks[p];
                }
            }
            for (int i = 0; i < group; i++) {
                payloads[i] = tables[partitions[i]][2 * slots[i] + 1];
            }
            for (int i = 0; i < group; i++) {
                long[] table = tables[partitions[i]];
                int mask = masks[partitions[i]];
                int slot = slots[i];
                long key = keys[candidates[i]];
                long payload = payloads[i];
                while (payload != 0) {
                    if (table[2 * slot] == key) {
                        starts[candidates[i]] = (int) payload;
                        counts[candidates[i]] = (int) (payload >>> 32);
                        break;
                    }
                    slot = (slot + 1) & mask;
                    payload = table[2 * slot + 1];
                }
            }
        }
    }

    /** {@link #probe} of the directly indexed keys: the dense filter's range is theirs. */
    private void probeDirect(long[] keys, boolean[] skip, int[] starts, int[] counts) {
        for (int row = 0; row < keys.length; row++) {
            long offset = keys[row] - filterBase;
            int buildRow = (skip != null && skip[row]) || offset < 0 || offset >= direct.length ? -1 : direct[(int) offset];
            starts[row] = Math.max(buildRow, 0);
            counts[row] = buildRow < 0 ? 0 : 1;
        }
    }

    private static final int PROBE_GROUP = 32;
    /** What {@link #passingHash} gives for a key the filter rejects (no 32-bit hash equals it). */
    private static final long REJECTED = -1;

    /** The key's hash (as an unsigned 32-bit value) when the filter lets it through to the table, else {@link #REJECTED}. */
    private long passingHash(long key, boolean skipped) {
        return skipped || !mayContain(key) ? REJECTED : hash(key) & 0xffffffffL;
    }

    /**
     * Writes to {@code out} the rows of {@code selected} (or the first {@code count} rows when
     * null) whose key, non-NULL, at {@code keysAddress} + {@code keyBytes} x row (8: a BIGINT, else
     * an INTEGER), the table may hold, as
     * {@link #mayContain} tells; returns their count. {@code out} may be {@code selected}. One
     * loop per kind of filter and no branch on the outcome: a scan tests every row, and about half
     * the keys pass in TPC-H Q21's scans.
     */
    public int retainMayContain(long keysAddress, int keyBytes, int[] selected, int count, int[] out) {
        boolean wide = keyBytes == Long.BYTES;
        long[] bits = filterBits;
        int kept = 0;
        if (denseFilter) {
            long base = filterBase;
            long range = filterRange;
            for (int i = 0; i < count; i++) {
                int row = selected == null ? i : selected[i];
                long offset = key(keysAddress, wide, row) - base;
                boolean inRange = Long.compareUnsigned(offset, range) < 0;
                long word = bits[inRange ? (int) (offset >>> 6) : 0];
                out[kept] = row;
                kept += inRange & (word & 1L << offset) != 0 ? 1 : 0;
            }
            return kept;
        }
        int shift = filterShift;
        for (int i = 0; i < count; i++) {
            int row = selected == null ? i : selected[i];
            long bit = key(keysAddress, wide, row) * Filter.MULTIPLIER >>> shift;
            out[kept] = row;
            kept += (bits[(int) (bit >>> 6)] & 1L << bit) != 0 ? 1 : 0;
        }
        return kept;
    }

    private static long key(long keysAddress, boolean wide, int row) {
        return wide ? MemoryUtil.getLong(keysAddress + ((long) row << 3)) : MemoryUtil.getInt(keysAddress + ((long) row << 2));
    }

    /**
     * Whether the key may be in the table: false means it certainly is not (exact when the
     * filter is dense, else with the false positives of 8 hash bits per key).
     */
    private boolean mayContain(long key) {
        if (denseFilter) {
            long offset = key - filterBase;
            return offset >= 0 && offset < filterRange && (filterBits[(int) (offset >>> 6)] & 1L << offset) != 0;
        }
        long bit = key * Filter.MULTIPLIER >>> filterShift;
        return (filterBits[(int) (bit >>> 6)] & 1L << bit) != 0;
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
