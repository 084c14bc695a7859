package io.warpdb.storage.encoding;

import java.util.Arrays;

/**
 * The distinct values of a stream, found with an open-addressing hash set of primitive longs
 * (linear probing, at most half full), so that finding a dictionary costs one pass and no boxing.
 */
final class DistinctValues {
    private DistinctValues() {
    }

    /** The distinct values of {@code values}, ascending; null as soon as there are more than {@code limit}. */
    static long[] sortedUpTo(long[] values, int limit) {
        long[] slots = new long[16];
        // Zero marks an empty slot, so whether the value 0 occurs is kept aside.
        boolean containsZero = false;
        int size = 0;
        for (long value : values) {
            boolean added;
            if (value == 0) {
                added = !containsZero;
                containsZero = true;
            } else {
                added = insert(slots, value);
            }
            if (added) {
                size++;
                if (size > limit) {
                    return null;
                }
                if (2 * size > slots.length) {
                    slots = rehash(slots, 2 * slots.length);
                }
            }
        }
        long[] distinct = new long[size];
        int next = 0;
        if (containsZero) {
            distinct[next++] = 0;
        }
        for (long slot : slots) {
            if (slot != 0) {
                distinct[next++] = slot;
            }
        }
        Arrays.sort(distinct);
        return distinct;
    }

    /** Adds a non-zero value; false when it was there already. */
    private static boolean insert(long[] slots, long value) {
        int mask = slots.length - 1;
        for (int slot = hash(value) & mask; ; slot = (slot + 1) & mask) {
            if (slots[slot] == value) {
                return false;
            }
            if (slots[slot] == 0) {
                slots[slot] = value;
                return true;
            }
        }
    }

    private static long[] rehash(long[] slots, int newLength) {
        long[] grown = new long[newLength];
        for (long value : slots) {
            if (value != 0) {
                insert(grown, value);
            }
        }
        return grown;
    }

    /** Spreads the bits (Murmur3's 64-bit finalizer), so that sequential values do not cluster. */
    private static int hash(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }
}
