package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.sort.KeyColumn.KeyRange;
import java.util.List;

/**
 * How GROUP BY keys pack into one 64-bit word: key k contributes (ordered key - min), or
 * {@code nullCodes[k]} (one past the largest value) for NULL, at bit {@code shifts[k]}, in as
 * many bits as its codes need. At most 63 bits, so that all ones can mark an empty hash slot.
 * {@code groupBound} is the most groups the keys can form (product of the code counts, at most
 * the row count).
 */
record KeyPacking(long[] mins, long[] nullCodes, long[] shifts, int bits, long groupBound) {
    static final int MAX_BITS = 63;

    /** The packing of keys with these ranges over {@code rows} rows, or null when they need more than 63 bits. */
    static KeyPacking of(List<KeyRange> ranges, long rows) {
        int n = ranges.size();
        long[] mins = new long[n];
        long[] nullCodes = new long[n];
        long[] shifts = new long[n];
        int bits = 0;
        long bound = 1;
        for (int k = 0; k < n; k++) {
            KeyRange r = ranges.get(k);
            boolean hasValues = r.valids() > 0;
            boolean hasNull = r.nulls() > 0;
            long span = hasValues ? r.span() : 0;
            if (hasValues && hasNull && span == -1L) {
                return null;  // 2^64 values and NULL
            }
            mins[k] = hasValues ? r.min() : 0;
            nullCodes[k] = hasValues ? span + 1 : 0;
            long maxCode = hasNull && hasValues ? span + 1 : span;
            shifts[k] = bits;
            bits += 64 - Long.numberOfLeadingZeros(maxCode);
            if (bits > MAX_BITS) {
                return null;
            }
            long codes = (hasValues ? span + 1 : 0) + (hasNull ? 1 : 0);
            bound = multiplySaturated(bound, codes);
        }
        return new KeyPacking(mins, nullCodes, shifts, bits, Math.min(bound, rows));
    }

    private static long multiplySaturated(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        return high != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }
}
