package io.warpdb.core.batch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Collects distinct UTF-8 strings and hands out their codes, hashing the bytes where they lie:
 * no String and no boxed code per value. Open addressing (linear probing, at most half full);
 * a slot holds an entry's hash next to its code, so that a probe touches the entry's bytes
 * only on a full hash match, and growing never hashes again.
 */
public final class Utf8Dictionary {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long PRIME1 = 0x9E3779B185EBCA87L;
    private static final long PRIME2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME3 = 0x165667B19E3779F9L;
    private static final long PRIME4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME5 = 0x27D4EB2F165667C5L;
    private static final long CODES = 0xFFFF_FFFFL;

    /** Values {@link #addBlock} looks up together: enough for the memory system to overlap their misses. */
    public static final int BLOCK = 16;

    private final Utf8Strings.Builder entries;
    private final int[] blockHashes = new int[BLOCK];
    private final long[] blockSlots = new long[BLOCK];
    private int blackhole;
    /** Per slot: the entry's hash in the high half, its code + 1 in the low half; 0 is empty. */
    private long[] slots;
    private boolean appended;

    public Utf8Dictionary(int expectedEntries, int expectedBytes) {
        int expected = Math.max(16, expectedEntries);
        entries = new Utf8Strings.Builder(expected, expectedBytes);
        slots = new long[Integer.highestOneBit(expected - 1) * 4]; // at most half full when the expected entries come
    }

    public int size() {
        return entries.size();
    }

    /** The code of {@code src[from..to)}, added when new. */
    public int add(byte[] src, int from, int to) {
        if (appended) {
            throw new IllegalStateException("entries were appended without a lookup");
        }
        return add(src, from, to, hash(src, from, to));
    }

    /**
     * As {@link #add} for the {@code count} values {@code src[from[i]..to[i])}, their codes into
     * {@code codes}. Once the table outgrows the cache every lookup waits for memory, twice for a
     * repeat (its slot, then the entry's bytes); loading all the slots of a block first, then
     * the entries they point at, lets those waits overlap instead of coming one after another.
     * Blocks of {@link #BLOCK} values or fewer.
     */
    public void addBlock(byte[] src, int[] from, int[] to, int count, int[] codes) {
        if (appended) {
            throw new IllegalStateException("entries were appended without a lookup");
        }
        int mask = slots.length - 1;
        long[] first = blockSlots;
        for (int i = 0; i < count; i++) {
            blockHashes[i] = hash(src, from[i], to[i]);
        }
        for (int i = 0; i < count; i++) {
            first[i] = slots[blockHashes[i] & mask];
        }
        int touched = 0;
        byte[] bytes = entries.bytes();
        for (int i = 0; i < count; i++) {
            if (first[i] != 0 && (int) (first[i] >>> 32) == blockHashes[i]) {
                int at = entries.offset((int) (first[i] & CODES) - 1);
                touched += at < bytes.length ? bytes[at] : 0; // an empty last entry may start at the end
            }
        }
        blackhole = touched; // keeps the loads above, which only warm the cache
        for (int i = 0; i < count; i++) {
            codes[i] = add(src, from[i], to[i], blockHashes[i]);
        }
    }

    private int add(byte[] src, int from, int to, int hash) {
        int mask = slots.length - 1;
        byte[] bytes = entries.bytes();
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            long entry = slots[slot];
            if (entry == 0) {
                return insert(slot, hash, src, from, to);
            }
            int code = (int) (entry & CODES) - 1;
            if ((int) (entry >>> 32) == hash && equal(bytes, entries.offset(code), entries.offset(code + 1), src, from, to)) {
                return code;
            }
        }
    }

    /** Byte by byte for the short values most repeats are (flags, modes), where Arrays.equals costs more than it saves. */
    private static boolean equal(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        int length = aTo - aFrom;
        if (length != bTo - bFrom) {
            return false;
        }
        if (length > Long.BYTES * 2) {
            return Arrays.equals(a, aFrom, aTo, b, bFrom, bTo);
        }
        for (int i = 0; i < length; i++) {
            if (a[aFrom + i] != b[bFrom + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Adds {@code src[from..to)} as a new entry without looking for it: for values seen to be
     * nearly all distinct, where the lookup costs more than the repeats it would save. From
     * then on entries may repeat, and {@link #add} is refused.
     */
    public int append(byte[] src, int from, int to) {
        appended = true;
        return entries.add(src, from, to);
    }

    /** True until {@link #append}: every entry differs from the others. */
    public boolean isDistinct() {
        return !appended;
    }

    private int insert(int slot, int hash, byte[] src, int from, int to) {
        int code = entries.add(src, from, to);
        slots[slot] = (long) hash << 32 | (code + 1L);
        if (2 * entries.size() > slots.length) {
            grow();
        }
        return code;
    }

    private void grow() {
        long[] grown = new long[2 * slots.length];
        int mask = grown.length - 1;
        for (long entry : slots) {
            if (entry != 0) {
                int slot = (int) (entry >>> 32) & mask;
                while (grown[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                grown[slot] = entry;
            }
        }
        slots = grown;
    }

    /**
     * The entries, in the order added (distinct unless appended); the dictionary must not be used
     * afterwards, unless {@link #clear}ed once they are not.
     */
    public Utf8Strings build() {
        return entries.build();
    }

    /**
     * Empties the dictionary for reuse, keeping its table and byte array at the size they grew
     * to: what {@link #build} returned before becomes invalid. Cheaper than a new dictionary of
     * that size, which would be zeroed just the same and, being large, make the heap grow.
     */
    public void clear() {
        Arrays.fill(slots, 0);
        entries.clear();
        appended = false;
    }

    /** A hash of the bytes, eight at a time: xxHash64's rounds and final mix (not its exact value). */
    static int hash(byte[] b, int from, int to) {
        long h = PRIME5 + to - from;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h ^= Long.rotateLeft((long) LONGS.get(b, i) * PRIME2, 31) * PRIME1;
            h = Long.rotateLeft(h, 27) * PRIME1 + PRIME4;
        }
        for (; i < to; i++) {
            h ^= (b[i] & 0xFFL) * PRIME5;
            h = Long.rotateLeft(h, 11) * PRIME1;
        }
        h ^= h >>> 33;
        h *= PRIME2;
        h ^= h >>> 29;
        h *= PRIME3;
        h ^= h >>> 32;
        return (int) h;
    }
}
