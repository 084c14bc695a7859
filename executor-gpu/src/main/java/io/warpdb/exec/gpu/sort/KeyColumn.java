package io.warpdb.exec.gpu.sort;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.List;

/**
 * A device column read as order-preserving unsigned 64-bit keys (sort/ordered_key.cuh): the
 * kernels' descriptor of it, the rank table of a string column (owned, freed by close) and its
 * key range. Kinds match the CUDA constants.
 */
public final class KeyColumn implements AutoCloseable {
    public static final int BOOL = 0;
    public static final int INT32 = 1;
    public static final int INT64 = 2;
    public static final int F64_ORDER = 3;
    public static final int F64_EQUALITY = 4;
    public static final int RANK = 5;
    /** A wide DECIMAL's upper word, signed, and its lower word, unsigned: sorted by both, in that significance, it sorts by value. */
    public static final int WIDE_HIGH = 6;
    public static final int WIDE_LOW = 7;
    /** A string column's dictionary codes as they are: an order of no meaning, for ANY_VALUE (no ranks to compute). */
    public static final int CODE = 8;

    private final DeviceColumn column;
    private final int kind;
    private final StringRanks ranks;
    private final DeviceBuffer rankBuffer;

    /**
     * @param forEquality doubles with -0.0 equal to 0.0 (GROUP BY, ORDER BY) rather than ordered before it (MIN/MAX)
     */
    public KeyColumn(DeviceColumn column, boolean forEquality, DeviceWork work) {
        this(column, forEquality, column.type().kind().isString() ? StringRanks.of(column.dictionary()) : null, null, work);
    }

    /**
     * The keys that sort, group and match rows as {@code column}'s values do ({@code forEquality} as
     * for the constructor): the column itself, or a wide DECIMAL's upper and lower words, the upper
     * more significant (the caller closes them).
     */
    public static List<KeyColumn> of(DeviceColumn column, boolean forEquality, DeviceWork work) {
        if (column.type().isWideDecimal()) {
            return List.of(new KeyColumn(column, WIDE_HIGH), new KeyColumn(column, WIDE_LOW));
        }
        return List.of(new KeyColumn(column, forEquality, work));
    }

    /**
     * An aggregate's argument: as the constructor reads it for MIN and MAX (doubles ordered, -0.0
     * before 0.0), a wide DECIMAL as its upper word (MIN and MAX pick by it first, then by the lower
     * word among the rows that have the picked one; sums read both words: aggregate/accumulate.cu).
     */
    public static KeyColumn forAccumulation(DeviceColumn column, DeviceWork work) {
        return column.type().isWideDecimal() ? new KeyColumn(column, WIDE_HIGH) : new KeyColumn(column, false, work);
    }

    /**
     * ANY_VALUE's argument, which any of a group's values answers: as {@link #forAccumulation}, but
     * a string column read by its codes, whose ranks (a sort of the dictionary) are not computed.
     */
    public static KeyColumn forAnyValue(DeviceColumn column, DeviceWork work) {
        return column.type().kind().isString() ? new KeyColumn(column, CODE) : forAccumulation(column, work);
    }

    /** A key of {@code kind} read from a column of no dictionary. */
    private KeyColumn(DeviceColumn column, int kind) {
        this.column = column;
        this.kind = kind;
        this.ranks = null;
        this.rankBuffer = null;
    }

    /**
     * A key column for equality with another column: doubles with -0.0 equal to 0.0, and a string
     * column's codes read as {@code keyOfCode[code]} (e.g. ids of the values shared by both
     * columns' dictionaries) instead of ranks; {@code keyOfCode} is ignored for other types.
     */
    public static KeyColumn forEquality(DeviceColumn column, int[] keyOfCode, DeviceWork work) {
        return new KeyColumn(column, true, null, column.type().kind().isString() ? keyOfCode : null, work);
    }

    private KeyColumn(DeviceColumn column, boolean forEquality, StringRanks ranks, int[] keyOfCode, DeviceWork work) {
        this.column = column;
        this.kind = kindOf(column.type(), forEquality);
        this.ranks = ranks;
        int[] codeKeys = ranks != null ? ranks.rankOfCode() : keyOfCode;
        if (kind == RANK && codeKeys == null) {
            throw new IllegalArgumentException("a string key column needs a key per dictionary code");
        }
        // An empty dictionary has no codes to look up (and nothing to copy).
        this.rankBuffer = codeKeys == null || codeKeys.length == 0 ? null : work.upload(codeKeys, "string key codes");
    }

    /**
     * How a column of {@code type} reads as one ordered key; {@code forEquality} as for the
     * constructor. A wide DECIMAL is no one key ({@link #of}).
     */
    public static int kindOf(DataType type, boolean forEquality) {
        if (type.isWideDecimal()) {
            throw new IllegalArgumentException(type.sqlName() + " is 128 bits wide: it sorts as two keys (KeyColumn.of)");
        }
        return switch (type.kind()) {
            case BOOLEAN -> BOOL;
            case INTEGER, DATE -> INT32;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> INT64;
            case DOUBLE -> forEquality ? F64_EQUALITY : F64_ORDER;
            case VARCHAR, CHAR -> RANK;
        };
    }

    public DeviceColumn column() {
        return column;
    }

    public int kind() {
        return kind;
    }

    /** The rank table of a string column (null otherwise, and for {@link #forEquality} columns). */
    public StringRanks ranks() {
        return ranks;
    }

    /**
     * The dictionary that this column's keys index when read back as codes (MIN, MAX and ANY_VALUE
     * of strings): the values by rank for {@link #RANK}, the column's own for {@link #CODE}; null
     * for other kinds.
     */
    public StringDictionary keyDictionary() {
        return kind == RANK ? ranks.byRank() : kind == CODE ? column.dictionary() : null;
    }

    /** The kernels' KeySource array of {@code columns}: four words each, one zero entry where there are none. */
    public static long[] descriptors(List<KeyColumn> columns) {
        long[] out = new long[4 * Math.max(1, columns.size())];
        for (int k = 0; k < columns.size(); k++) {
            System.arraycopy(columns.get(k).descriptor(), 0, out, 4 * k, 4);
        }
        return out;
    }

    /** The four words of the CUDA KeySource: values, validity, ranks (addresses, 0 when absent), kind. */
    public long[] descriptor() {
        return new long[] {column.values().address(), column.validityAddress(),
                rankBuffer == null ? 0 : rankBuffer.address(), kind};
    }

    /** The key range of the column's rows (computed on the device). */
    public KeyRange range(DeviceWork work) {
        int rows = column.rows();
        try (DeviceBuffer out = work.upload(new long[] {-1L, 0, 0, 0}, "key range")) {
            work.kernel("sort/radix", "key_range").launch(work.stream(), Math.max(1, GridSize.strided(rows, work)),
                    GridSize.BLOCK, 0, column.values(), column.validity(), rankBuffer, kind, rows, out);
            long[] r = work.downloadLongs(out, 4);
            return new KeyRange(r[0], r[1], r[2], r[3]);
        }
    }

    /** Kernel arguments values, validity, ranks, kind (in that order), for kernels that build a KeySource. */
    public Object[] kernelArguments() {
        return new Object[] {column.values(), column.validity(), rankBuffer, kind};
    }

    @Override
    public void close() {
        if (rankBuffer != null) {
            rankBuffer.close();
        }
    }

    /** Smallest and largest ordered key of the non-NULL rows (as unsigned longs), and the counts. */
    public record KeyRange(long min, long max, long nulls, long valids) {
        /** max - min as an unsigned long; meaningful when {@code valids > 0}. */
        public long span() {
            return max - min;
        }
    }
}
