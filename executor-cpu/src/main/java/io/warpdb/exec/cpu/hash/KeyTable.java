package io.warpdb.exec.cpu.hash;

import java.util.Arrays;

/**
 * A hash table giving dense ids (0, 1, 2, ... in order of first appearance) to distinct tuples of
 * encoded keys (see {@link KeyEncoder}), each key with a NULL flag, so that NULL is a value of its
 * own (GROUP BY puts NULLs in one group; joins skip rows with NULL keys before they get here).
 * With no keys at all every row gets id 0. Open addressing with linear probing; each slot holds
 * the tuple's hash, its id and its first key, so that a probe touches the stored tuple only when
 * the hashes and first keys agree, and a table of one key (TPC-H Q18's 1.5 M order keys) never
 * does: one cache miss per lookup. The tuples are stored column-wise by id.
 */
public final class KeyTable {
    private static final long NULL_HASH = 0x5bd1e9955bd1e995L;

    private final int keyCount;
    /** keys[k][id], nullKeys[k][id]: the stored tuples. */
    private long[][] keys;
    private boolean[][] nullKeys;
    private int[] hashes;
    private int size;
    /**
     * Slot s is two longs: at 2s the tuple's hash in the high 32 bits and its id + 1 in the low
     * 32 bits, 0 for empty; at 2s + 1 its first key (0 when NULL or when there are no keys). The
     * number of slots is a power of two kept at most half full.
     */
    private long[] slots;
    /**
     * For tables of one or two keys: the id of each tuple of non-NULL keys in [0, 256), at
     * (k0 << 8 | k1), -1 while unseen; null for other tables. Low-cardinality groupings (a status
     * flag, a dictionary-coded category: TPC-H Q1's four groups) then cost one array read per row.
     * Allocated with the first batch of rows that all qualify.
     */
    private int[] smallTupleIds;

    public KeyTable(int keyCount) {
        this(keyCount, 8);
    }

    /** A table sized for {@code expected} tuples, so that it need not grow until it holds more. */
    public KeyTable(int keyCount, int expected) {
        int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1);
        this.keyCount = keyCount;
        this.keys = new long[keyCount][capacity];
        this.nullKeys = new boolean[keyCount][capacity];
        this.hashes = new int[capacity];
        this.slots = new long[capacity * 4];
    }

    /** Number of distinct tuples. */
    public int size() {
        return size;
    }

    public long key(int k, int id) {
        return keys[k][id];
    }

    public boolean isNull(int k, int id) {
        return nullKeys[k][id];
    }

    /** The hash of stored tuple {@code id}, as {@link #add} computed it (the same for equal tuples in any table). */
    public int storedHash(int id) {
        return hashes[id];
    }

    /**
     * Writes into {@code ids} the id of each row's tuple, adding tuples not seen before ({@code isNew}
     * flags the rows that added one; may be null). {@code rowKeys[k]} holds key k for every row and
     * {@code rowNulls[k]} its NULL flags (null: no NULLs); rows flagged in {@code skip} (may be null) get -1.
     */
    public void add(long[][] rowKeys, boolean[][] rowNulls, boolean[] skip, int[] ids, boolean[] isNew) {
        if ((keyCount == 1 || keyCount == 2) && allSmall(rowKeys, rowNulls, skip, ids.length)) {
            if (smallTupleIds == null) {
                smallTupleIds = new int[1 << (8 * keyCount)];
                Arrays.fill(smallTupleIds, -1);
            }
            addSmall(rowKeys, rowNulls, skip, ids, isNew);
            return;
        }
        int rows = ids.length;
        // The rows that need a lookup, with their hashes. Rows often come in runs of one key (a
        // table loaded in key order, lineitem by orderkey): such a row takes its predecessor's id.
        int[] lookupRows = new int[rows];
        int[] lookupHashes = new int[rows];
        int lookups = 0;
        int previous = -1;
        for (int row = 0; row < rows; row++) {
            if (skip != null && skip[row]) {
                continue;
            }
            if (previous < 0 || !sameTuple(rowKeys, rowNulls, previous, row)) {
                lookupRows[lookups] = row;
                lookupHashes[lookups++] = hashOf(rowKeys, rowNulls, row);
            }
            previous = row;
        }
        int next = 0;
        previous = -1;
        for (int row = 0; row < rows; row++) {
            if (skip != null && skip[row]) {
                ids[row] = -1;
                continue;
            }
            if (next < lookups && lookupRows[next] == row) {
                if (next % PREFETCH_GROUP == 0) {
                    touchSlots(lookupHashes, next, Math.min(lookups, next + PREFETCH_GROUP));
                }
                int before = size;
                ids[row] = addRow(rowKeys, rowNulls, row, lookupHashes[next++]);
                if (isNew != null) {
                    isNew[row] = size > before;
                }
            } else {
                ids[row] = ids[previous];
                if (isNew != null) {
                    isNew[row] = false;
                }
            }
            previous = row;
        }
    }

    private static final int SMALL_CHECK_BLOCK = 256;

    /** Whether every row not skipped has non-NULL keys in [0, 256). */
    private static boolean allSmall(long[][] rowKeys, boolean[][] rowNulls, boolean[] skip, int rows) {
        for (int k = 0; k < rowKeys.length; k++) {
            if (rowNulls[k] != null) {
                for (int row = 0; row < rows; row++) {
                    if (rowNulls[k][row] && (skip == null || !skip[row])) {
                        return false;
                    }
                }
            }
            // In blocks, so that large keys (TPC-H Q18's order keys) end the check at the first block.
            long[] keys = rowKeys[k];
            for (int from = 0; from < rows; from += SMALL_CHECK_BLOCK) {
                long outside = 0;
                for (int row = from, to = Math.min(rows, from + SMALL_CHECK_BLOCK); row < to; row++) {
                    outside |= (skip != null && skip[row] ? 0 : keys[row]) & ~0xffL;
                }
                if (outside != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** {@link #add} for rows whose tuples {@link #allSmall} accepted: the tuple's id from {@link #smallTupleIds}. */
    private void addSmall(long[][] rowKeys, boolean[][] rowNulls, boolean[] skip, int[] ids, boolean[] isNew) {
        long[] first = rowKeys[0];
        long[] second = keyCount == 2 ? rowKeys[1] : null;
        for (int row = 0; row < ids.length; row++) {
            if (skip != null && skip[row]) {
                ids[row] = -1;
                continue;
            }
            int at = (int) (second == null ? first[row] : first[row] << 8 | second[row]);
            int id = smallTupleIds[at];
            boolean added = false;
            if (id < 0) {
                // The tuple may be in the table already, added by an earlier call that had large keys too.
                int before = size;
                id = addRow(rowKeys, rowNulls, row, hashOf(rowKeys, rowNulls, row));
                added = size > before;
                smallTupleIds[at] = id;
            }
            ids[row] = id;
            if (isNew != null) {
                isNew[row] = added;
            }
        }
    }

    /** Lookups whose first slots are loaded together (see {@link #touchSlots}). */
    private static final int PREFETCH_GROUP = 16;
    /** Where {@link #touchSlots} leaves what it read, so that the loads are not optimized away. */
    private long touched;

    /**
     * Reads the first slot of each of the lookups [from, to) in one loop of independent loads,
     * so that their cache misses overlap; the lookups that follow then find those slots cached.
     */
    private void touchSlots(int[] hashes, int from, int to) {
        int mask = slots.length / 2 - 1;
        long sink = 0;
        for (int i = from; i < to; i++) {
            sink ^= slots[2 * (hashes[i] & mask)];
        }
        touched = sink;
    }

    private static boolean sameTuple(long[][] rowKeys, boolean[][] rowNulls, int a, int b) {
        for (int k = 0; k < rowKeys.length; k++) {
            boolean aNull = rowNulls[k] != null && rowNulls[k][a];
            boolean bNull = rowNulls[k] != null && rowNulls[k][b];
            if (aNull != bNull || !aNull && rowKeys[k][a] != rowKeys[k][b]) {
                return false;
            }
        }
        return true;
    }

    /** The id of one row's tuple (whose {@link #hashOf} is {@code hash}), added if new. */
    public int addRow(long[][] rowKeys, boolean[][] rowNulls, int row, int hash) {
        int slot = findSlot(rowKeys, rowNulls, row, hash);
        if (slots[2 * slot] != 0) {
            return idOf(slots[2 * slot]);
        }
        int id = insert(rowKeys, rowNulls, row, hash);
        slots[2 * slot] = slotEntry(hash, id);
        slots[2 * slot + 1] = firstKey(rowKeys, rowNulls, row);
        if (size * 4 > slots.length) {
            rehash();
        }
        return id;
    }

    /**
     * Like {@link #add} without adding, for rows [from, to) only: rows whose tuple is not in the
     * table get -1. Only reads the table, so several threads may look up disjoint ranges at once.
     */
    public void find(long[][] rowKeys, boolean[][] rowNulls, boolean[] skip, int[] ids, int from, int to) {
        for (int row = from; row < to; row++) {
            ids[row] = skip != null && skip[row] ? -1 : findRow(rowKeys, rowNulls, row, hashOf(rowKeys, rowNulls, row));
        }
    }

    /** The id of one row's tuple (whose {@link #hashOf} is {@code hash}), or -1. */
    public int findRow(long[][] rowKeys, boolean[][] rowNulls, int row, int hash) {
        return idOf(slots[2 * findSlot(rowKeys, rowNulls, row, hash)]);
    }

    /** The slot holding the row's tuple, or the empty slot where it would go. */
    private int findSlot(long[][] rowKeys, boolean[][] rowNulls, int row, int hash) {
        int mask = slots.length / 2 - 1;
        int slot = hash & mask;
        long first = firstKey(rowKeys, rowNulls, row);
        long entry;
        while ((entry = slots[2 * slot]) != 0) {
            // One key: equal hashes and keys mean equal tuples, as NULL (stored as 0) hashes unlike the key 0.
            if ((int) (entry >>> 32) == hash && slots[2 * slot + 1] == first
                    && (keyCount == 1 || equalsStored(rowKeys, rowNulls, row, idOf(entry)))) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /** The row's first key as a slot keeps it: 0 when NULL or when there are no keys. */
    private long firstKey(long[][] rowKeys, boolean[][] rowNulls, int row) {
        return keyCount == 0 || rowNulls[0] != null && rowNulls[0][row] ? 0 : rowKeys[0][row];
    }

    private static long slotEntry(int hash, int id) {
        return (long) hash << 32 | (id + 1L);
    }

    /** The id in a slot entry; -1 for an empty slot. */
    private static int idOf(long entry) {
        return (int) entry - 1;
    }

    private boolean equalsStored(long[][] rowKeys, boolean[][] rowNulls, int row, int id) {
        for (int k = 0; k < keyCount; k++) {
            boolean rowIsNull = rowNulls[k] != null && rowNulls[k][row];
            if (rowIsNull != nullKeys[k][id] || !rowIsNull && rowKeys[k][row] != keys[k][id]) {
                return false;
            }
        }
        return true;
    }

    private int insert(long[][] rowKeys, boolean[][] rowNulls, int row, int hash) {
        if (size == hashes.length) {
            int capacity = size * 2;
            hashes = Arrays.copyOf(hashes, capacity);
            for (int k = 0; k < keyCount; k++) {
                keys[k] = Arrays.copyOf(keys[k], capacity);
                nullKeys[k] = Arrays.copyOf(nullKeys[k], capacity);
            }
        }
        for (int k = 0; k < keyCount; k++) {
            boolean isNull = rowNulls[k] != null && rowNulls[k][row];
            nullKeys[k][size] = isNull;
            keys[k][size] = isNull ? 0 : rowKeys[k][row];
        }
        hashes[size] = hash;
        return size++;
    }

    private void rehash() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length / 2 - 1;
        for (int from = 0; from < old.length; from += 2) {
            if (old[from] != 0) {
                int slot = (int) (old[from] >>> 32) & mask;
                while (slots[2 * slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[2 * slot] = old[from];
                slots[2 * slot + 1] = old[from + 1];
            }
        }
    }

    /** The hash of a row's tuple: equal tuples hash alike in every table, so it may also pick a partition. */
    public static int hashOf(long[][] rowKeys, boolean[][] rowNulls, int row) {
        long h = 0;
        for (int k = 0; k < rowKeys.length; k++) {
            boolean isNull = rowNulls[k] != null && rowNulls[k][row];
            h = mix(h * 31 + (isNull ? NULL_HASH : rowKeys[k][row]));
        }
        return (int) (h ^ (h >>> 32));
    }

    /** The 64-bit finalizer of MurmurHash3: spreads every input bit over the whole word. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb34fe5355a53L;
        h ^= h >>> 33;
        return h;
    }
}
