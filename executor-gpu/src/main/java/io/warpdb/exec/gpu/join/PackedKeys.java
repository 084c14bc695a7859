package io.warpdb.exec.gpu.join;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.KeyColumn.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Several join key columns packed into one 64-bit key per row (pack_keys in join/merge_join.cu),
 * so that the sort-merge join sorts and searches one word: key k of a row contributes
 * (ordered key - min) in a bit field wide enough for the values of both sides. Unlike GROUP BY's
 * packing (aggregate.KeyPacking) NULL needs no code, since a row with a NULL key matches nothing,
 * and all 64 bits may be used, since no word marks an empty slot. Each side's packed keys form a
 * BIGINT column, NULL where a key is NULL; the columns and their key views are owned here.
 */
final class PackedKeys implements AutoCloseable {
    static final int MAX_BITS = 64;

    private final List<DeviceColumn> columns = new ArrayList<>();
    private final List<KeyColumn> keyColumns = new ArrayList<>();

    private PackedKeys() {
    }

    /**
     * The most bits a key of these (comparable) types can need, whatever the data: ordered keys of
     * INTEGER and DATE span 2^32 values, string ids (DeviceJoinKeys.codeKeys) stay below 2^31, BOOLEAN
     * is 0 or 1; other types may use all 64.
     */
    static int bitBound(DataType left, DataType right) {
        return Math.max(bitBound(left), bitBound(right));
    }

    private static int bitBound(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case VARCHAR, CHAR -> 31;
            case INTEGER, DATE -> 32;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL, DOUBLE -> 64;
        };
    }

    /** Where each key goes: its minimum over both sides and its bit shift. */
    record Layout(long[] mins, long[] shifts, int bits) {
        /**
         * The layout for keys whose non-NULL values have these ranges on the left and right side,
         * or null when they need more than 64 bits. Keys with one value (or none) take no bits.
         */
        static Layout of(List<KeyRange> left, List<KeyRange> right) {
            int n = left.size();
            long[] mins = new long[n];
            long[] shifts = new long[n];
            int bits = 0;
            for (int k = 0; k < n; k++) {
                KeyRange l = left.get(k);
                KeyRange r = right.get(k);
                if (l.valids() == 0 && r.valids() == 0) {
                    continue;  // no values: every row is NULL in this key and matches nothing
                }
                long min = l.valids() == 0 ? r.min() : r.valids() == 0 ? l.min() : Long.compareUnsigned(l.min(), r.min()) <= 0
                        ? l.min() : r.min();
                long max = l.valids() == 0 ? r.max() : r.valids() == 0 ? l.max() : Long.compareUnsigned(l.max(), r.max()) >= 0
                        ? l.max() : r.max();
                int width = 64 - Long.numberOfLeadingZeros(max - min);
                mins[k] = min;
                shifts[k] = width == 0 ? 0 : bits;
                bits += width;
                if (bits > MAX_BITS) {
                    return null;
                }
            }
            return new Layout(mins, shifts, bits);
        }
    }

    /**
     * The packed keys of both sides of {@code keys} ({@code keys.count()} columns whose bit bounds
     * sum to at most 64, so that packing cannot fail).
     */
    static PackedKeys of(DeviceJoinKeys keys, int leftRows, int rightRows, DeviceWork work) {
        List<KeyRange> left = new ArrayList<>();
        List<KeyRange> right = new ArrayList<>();
        for (int k = 0; k < keys.count(); k++) {
            left.add(keys.probeColumn(k).range(work));
            right.add(keys.buildColumn(k).range(work));
        }
        Layout layout = Layout.of(left, right);
        if (layout == null) {
            throw new IllegalArgumentException("join keys of " + keys.count() + " columns need more than 64 bits");
        }
        PackedKeys packed = new PackedKeys();
        try (DeviceBuffer mins = work.upload(layout.mins(), "packed key minimums");
                DeviceBuffer shifts = work.upload(layout.shifts(), "packed key shifts")) {
            packed.add(keys.probeDescriptors(), keys.count(), mins, shifts, leftRows, work);
            packed.add(keys.buildDescriptors(), keys.count(), mins, shifts, rightRows, work);
            // Freeing mins and shifts now is safe: the pool holds blocks back until their stream's work passed.
            return packed;
        } catch (RuntimeException e) {
            packed.close();
            throw e;
        }
    }

    private void add(DeviceBuffer descriptors, int keyCount, DeviceBuffer mins, DeviceBuffer shifts, int rows, DeviceWork work) {
        DeviceBuffer values = work.allocate((long) rows * Long.BYTES, "packed join keys");
        DeviceBuffer validity = null;
        try {
            validity = work.allocate(rows, "packed join key validity");
            work.kernel("join/merge_join", "pack_keys").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                    descriptors, keyCount, mins, shifts, rows, values, validity);
        } catch (RuntimeException e) {
            values.close();
            if (validity != null) {
                validity.close();
            }
            throw e;
        }
        DeviceColumn column = new DeviceColumn(DataType.BIGINT, rows, values, validity, null);
        columns.add(column);
        keyColumns.add(new KeyColumn(column, true, work));
    }

    /** The left side's packed keys. */
    KeyColumn probe() {
        return keyColumns.get(0);
    }

    /** The right side's packed keys. */
    KeyColumn build() {
        return keyColumns.get(1);
    }

    @Override
    public void close() {
        keyColumns.forEach(KeyColumn::close);
        columns.forEach(DeviceColumn::close);
    }
}
