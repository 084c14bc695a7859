package io.warpdb.exec.cpu.column;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;

/**
 * The values of one column, or of one evaluated expression, over the rows of a batch, held in
 * Java arrays so that evaluation runs as tight loops over primitives. Two layouts cover every
 * type: DOUBLE uses {@link #doubles()}; all other types use {@link #longs()} (BOOLEAN as 0/1,
 * DATE as days, INTEGER/BIGINT as values, DECIMAL unscaled, VARCHAR/CHAR as codes into
 * {@link #dictionary()}). A wide DECIMAL (precision over 18) adds {@link #highs()}: its 128-bit
 * unscaled value is {@code highs[i] * 2^64 + unsigned longs[i]}. NULL rows are flagged in
 * {@link #nulls()} (a null array means no NULLs) and hold 0.
 *
 * <p>Columns are immutable by convention: code never writes into a column it did not create, so
 * arrays may be shared between columns (e.g. a string function keeps its input's codes).
 */
public final class Column {
    private final DataType type;
    private final long[] longs;
    private final long[] highs;
    private final double[] doubles;
    private final boolean[] nulls;
    private final StringDictionary dictionary;

    private Column(DataType type, long[] longs, long[] highs, double[] doubles, boolean[] nulls, StringDictionary dictionary) {
        this.type = type;
        this.longs = longs;
        this.highs = highs;
        this.doubles = doubles;
        this.nulls = nulls;
        this.dictionary = dictionary;
    }

    /** A column of any type but DOUBLE, strings and wide DECIMAL; {@code nulls} may be null. */
    public static Column ofLongs(DataType type, long[] values, boolean[] nulls) {
        return new Column(type, values, null, null, nulls, null);
    }

    /** A wide DECIMAL column: the low and high 64-bit words of each unscaled value. */
    public static Column ofWide(DataType type, long[] lows, long[] highs, boolean[] nulls) {
        return new Column(type, lows, highs, null, nulls, null);
    }

    public static Column ofDoubles(DataType type, double[] values, boolean[] nulls) {
        return new Column(type, null, null, values, nulls, null);
    }

    /** A string column: codes into {@code dictionary}. */
    public static Column ofCodes(DataType type, long[] codes, boolean[] nulls, StringDictionary dictionary) {
        return new Column(type, codes, null, null, nulls, dictionary);
    }

    /** A column of {@code size} NULLs. */
    public static Column allNull(DataType type, int size) {
        boolean[] nulls = new boolean[size];
        java.util.Arrays.fill(nulls, true);
        if (type.kind() == TypeKind.DOUBLE) {
            return ofDoubles(type, new double[size], nulls);
        }
        return new Column(type, new long[size], type.isWideDecimal() ? new long[size] : null, null, nulls,
                type.kind().isString() ? StringDictionary.EMPTY : null);
    }

    /** The same values seen as another type of the same layout (e.g. VARCHAR(10) as VARCHAR). */
    public Column withType(DataType newType) {
        return new Column(newType, longs, highs, doubles, nulls, dictionary);
    }

    public DataType type() {
        return type;
    }

    public int size() {
        return longs != null ? longs.length : doubles.length;
    }

    public boolean isDouble() {
        return doubles != null;
    }

    public long[] longs() {
        return longs;
    }

    public double[] doubles() {
        return doubles;
    }

    /** The high words of a wide DECIMAL's values ({@link #longs()} holds the low ones); null for every other type. */
    public long[] highs() {
        return highs;
    }

    public boolean isWide() {
        return highs != null;
    }

    /** Per-row NULL flags, or null when no row is NULL. */
    public boolean[] nulls() {
        return nulls;
    }

    public StringDictionary dictionary() {
        return dictionary;
    }

    public boolean isNull(int row) {
        return nulls != null && nulls[row];
    }

    /** For BOOLEAN columns: the row is TRUE (not FALSE, not NULL). */
    public boolean isTrue(int row) {
        return longs[row] != 0 && !isNull(row);
    }

    /** For BOOLEAN columns: the positions of the TRUE rows, ascending. */
    public int[] trueRows() {
        int count = 0;
        for (int i = 0; i < longs.length; i++) {
            if (isTrue(i)) {
                count++;
            }
        }
        int[] rows = new int[count];
        for (int i = 0, at = 0; at < count; i++) {
            if (isTrue(i)) {
                rows[at++] = i;
            }
        }
        return rows;
    }

    /** For string columns: the row's value (the row must not be NULL). */
    public String string(int row) {
        return dictionary.get((int) longs[row]);
    }

    /** The values as doubles: DOUBLE as is, exact numbers divided by 10^scale. */
    public double[] toDoubles() {
        if (doubles != null) {
            return doubles;
        }
        int scale = Decimals.scaleOf(type);
        double[] out = new double[longs.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = highs != null ? Int128.toDouble(highs[i], longs[i], scale) : Decimals.toDouble(longs[i], scale);
        }
        return out;
    }

    /** The rows at the given positions, in that order. */
    public Column gather(int[] rows) {
        boolean[] outNulls = null;
        if (nulls != null) {
            outNulls = new boolean[rows.length];
            for (int i = 0; i < rows.length; i++) {
                outNulls[i] = nulls[rows[i]];
            }
        }
        if (doubles != null) {
            double[] out = new double[rows.length];
            for (int i = 0; i < rows.length; i++) {
                out[i] = doubles[rows[i]];
            }
            return new Column(type, null, null, out, outNulls, null);
        }
        return new Column(type, gather(longs, rows), highs == null ? null : gather(highs, rows), null, outNulls, dictionary);
    }

    private static long[] gather(long[] values, int[] rows) {
        long[] out = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
            out[i] = values[rows[i]];
        }
        return out;
    }

    /** A fresh array flagging the rows where any of the columns is NULL; null when none has NULLs. */
    public static boolean[] nullsOfAny(Column... columns) {
        boolean[] out = null;
        for (Column c : columns) {
            if (c == null || c.nulls == null) {
                continue;
            }
            if (out == null) {
                out = c.nulls.clone();
            } else {
                for (int i = 0; i < out.length; i++) {
                    out[i] |= c.nulls[i];
                }
            }
        }
        return out;
    }
}
