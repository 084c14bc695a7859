package io.warpdb.exec.cpu.column;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.util.Arrays;

/**
 * Assembles a column from pieces computed for subsets of its rows (the branches of CASE, the
 * arguments of COALESCE). Rows never written stay NULL. String pieces may come from different
 * dictionaries; their values are collected into one fresh, deduplicated dictionary.
 */
public final class ColumnBuilder {
    private final DataType type;
    private final long[] longs;
    private final long[] highs;
    private final double[] doubles;
    private final boolean[] nulls;
    private final StringDictionary.Builder strings;
    private StringDictionary lastSource;
    private int[] lastRemap;

    public ColumnBuilder(DataType type, int size) {
        this.type = type;
        boolean isDouble = type.kind() == TypeKind.DOUBLE;
        this.longs = isDouble ? null : new long[size];
        this.highs = type.isWideDecimal() ? new long[size] : null;
        this.doubles = isDouble ? new double[size] : null;
        this.nulls = new boolean[size];
        Arrays.fill(nulls, true);
        this.strings = type.kind().isString() ? new StringDictionary.Builder() : null;
    }

    /** Writes row i of {@code source} (of this builder's layout) into row {@code rows[i]}. */
    public void scatter(Column source, int[] rows) {
        for (int i = 0; i < rows.length; i++) {
            nulls[rows[i]] = source.isNull(i);
        }
        if (doubles != null) {
            double[] values = source.doubles();
            for (int i = 0; i < rows.length; i++) {
                doubles[rows[i]] = source.isNull(i) ? 0 : values[i];
            }
        } else if (strings != null) {
            int[] remap = remapFor(source.dictionary());
            long[] codes = source.longs();
            for (int i = 0; i < rows.length; i++) {
                longs[rows[i]] = source.isNull(i) ? 0 : codeOf(remap, source.dictionary(), (int) codes[i]);
            }
        } else {
            copy(source.longs(), longs, source, rows);
            if (highs != null) {
                copy(source.highs(), highs, source, rows);
            }
        }
    }

    private static void copy(long[] values, long[] into, Column source, int[] rows) {
        for (int i = 0; i < rows.length; i++) {
            into[rows[i]] = source.isNull(i) ? 0 : values[i];
        }
    }

    public Column build() {
        boolean anyNull = false;
        for (boolean n : nulls) {
            anyNull |= n;
        }
        boolean[] outNulls = anyNull ? nulls : null;
        if (doubles != null) {
            return Column.ofDoubles(type, doubles, outNulls);
        }
        if (strings != null) {
            return Column.ofCodes(type, longs, outNulls, strings.build());
        }
        return highs != null ? Column.ofWide(type, longs, highs, outNulls) : Column.ofLongs(type, longs, outNulls);
    }

    /** Source code -> builder code, filled lazily; kept for the last source dictionary seen. */
    private int[] remapFor(StringDictionary source) {
        if (source != lastSource) {
            lastSource = source;
            lastRemap = new int[source.size()];
            Arrays.fill(lastRemap, -1);
        }
        return lastRemap;
    }

    private int codeOf(int[] remap, StringDictionary source, int code) {
        if (remap[code] < 0) {
            remap[code] = strings.add(source.get(code));
        }
        return remap[code];
    }
}
