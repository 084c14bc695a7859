package io.warpdb.exec.gpu.sort;

import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;

/**
 * The stable order of rows under several keys, by LSD radix sort of (code, row id) pairs
 * (sort/radix.cu): keys from the least significant, each turned into codes that sort as the key
 * does (key - min, complemented for DESC, NULL at its end), and only as many 8-bit digit passes
 * as the codes' range needs. A key whose range leaves no room for a NULL code is sorted twice:
 * by value, then by a one-bit NULL flag.
 */
public final class RadixSorter {
    private static final int DIGIT_BITS = 8;
    private static final int RADIX = 1 << DIGIT_BITS;

    /** One key: the column, its direction and where NULLs go. */
    public record Key(KeyColumn column, boolean descending, boolean nullsFirst) {
    }

    private RadixSorter() {
    }

    /** Row ids of {@code rows} rows in sorted order (the first key most significant); the caller closes it. */
    public static DeviceBuffer sortedRowIds(List<Key> keys, int rows, DeviceWork work) {
        DeviceBuffer ids = ColumnGather.sequence(0, rows, work);
        try {
            for (int k = keys.size() - 1; k >= 0 && rows > 1; k--) {
                ids = sortByKey(keys.get(k), ids, rows, work);
            }
            return ids;
        } catch (RuntimeException e) {
            ids.close();
            throw e;
        }
    }

    /** Stable sort of {@code ids} (consumed) by one key; returns the new order. */
    private static DeviceBuffer sortByKey(Key key, DeviceBuffer ids, int rows, DeviceWork work) {
        KeyColumn.KeyRange range = key.column().range(work);
        if (range.valids() == 0) {
            return ids;  // all NULL: every row ties
        }
        long span = range.span();
        boolean hasNulls = range.nulls() > 0;
        boolean nullCodeFits = !hasNulls || span != -1L;
        // Without NULLs the codes are key - min exactly: WITH_NULL would shift them by one for
        // NULLS FIRST, past the bits a full range (INTEGER or BIGINT from MIN to MAX) leaves.
        long maxCode = hasNulls && nullCodeFits ? span + 1 : span;
        int mode = hasNulls && nullCodeFits ? SortCodes.WITH_NULL : SortCodes.VALUE_ONLY;
        ids = sortByCodes(key, range, mode, bits(maxCode), ids, rows, work);
        if (!nullCodeFits) {
            ids = sortByCodes(key, range, SortCodes.NULL_FLAG, 1, ids, rows, work);
        }
        return ids;
    }

    /** Bits needed for codes 0..maxCode (unsigned). */
    static int bits(long maxCode) {
        return 64 - Long.numberOfLeadingZeros(maxCode);
    }

    private static DeviceBuffer sortByCodes(Key key, KeyColumn.KeyRange range, int mode, int bits, DeviceBuffer ids,
            int rows, DeviceWork work) {
        if (bits == 0) {
            return ids;
        }
        int grid = GridSize.strided(rows, work);
        int tiles = GridSize.tiles(rows);
        DeviceBuffer keysA = work.allocate((long) rows * Long.BYTES, "sort keys");
        DeviceBuffer keysB = null;
        DeviceBuffer idsB = null;
        DeviceBuffer counts = null;
        DeviceBuffer offsets = null;
        try {
            // Codes of the rows in their current order, so that the passes move (code, id) pairs.
            Object[] source = key.column().kernelArguments();
            work.kernel("sort/radix", "sort_codes").launch(work.stream(), grid, GridSize.BLOCK, 0, source[0], source[1],
                    source[2], source[3], ids, rows, range.min(), range.span(), key.descending() ? 1 : 0,
                    key.nullsFirst() ? 1 : 0, mode, keysA);
            keysB = work.allocate((long) rows * Long.BYTES, "sort keys");
            idsB = work.allocate((long) rows * Integer.BYTES, "sort row ids");
            counts = work.allocate((long) RADIX * tiles * Integer.BYTES, "radix counts");
            offsets = work.allocate(((long) RADIX * tiles + 1) * Integer.BYTES, "radix offsets");
            for (int shift = 0; shift < bits; shift += DIGIT_BITS) {
                work.kernel("sort/radix", "radix_histogram").launch(work.stream(), tiles, GridSize.BLOCK, 0, keysA, rows,
                        shift, counts, tiles);
                PrefixSum.exclusive(counts, offsets, RADIX * tiles, work);
                work.kernel("sort/radix", "radix_scatter").launch(work.stream(), tiles, GridSize.BLOCK, 0, keysA, ids, keysB,
                        idsB, rows, shift, offsets, tiles);
                DeviceBuffer k = keysA;
                keysA = keysB;
                keysB = k;
                DeviceBuffer i = ids;
                ids = idsB;
                idsB = i;
            }
            return ids;
        } finally {
            keysA.close();
            for (DeviceBuffer b : new DeviceBuffer[] {keysB, idsB, counts, offsets}) {
                if (b != null) {
                    b.close();
                }
            }
        }
    }

    /** Code modes of the sort_codes kernel. */
    private static final class SortCodes {
        static final int WITH_NULL = 0;
        static final int VALUE_ONLY = 1;
        static final int NULL_FLAG = 2;
    }
}
