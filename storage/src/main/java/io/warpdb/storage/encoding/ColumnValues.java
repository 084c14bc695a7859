package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/**
 * A column chunk as the value encodings see it: one long per row (see {@link PhysicalLayout}),
 * and for strings the chunk's dictionary. Every NULL slot holds the nearest earlier non-null
 * value (leading NULLs the first one), so that NULLs neither break runs nor make deltas jump;
 * the validity layer restores them.
 *
 * @param dictionary for VARCHAR/CHAR, the strings the chunk uses, each once; {@code values} are
 *     codes into it. Null for every other type.
 */
record ColumnValues(PhysicalLayout layout, long[] values, StringDictionary dictionary) {
    int count() {
        return values.length;
    }

    /** The first {@code rowCount} rows of {@code vector}, their values in {@code scratch}'s array (valid until its next use). */
    static ColumnValues read(FieldVector vector, DataType type, StringDictionary dictionary, int rowCount, ChunkScratch scratch) {
        PhysicalLayout layout = PhysicalLayout.of(type.kind());
        long[] values = scratch.longs(rowCount);
        layout.load(vector.getDataBuffer(), values);
        fillNullSlots(vector, values);
        if (!type.kind().isString()) {
            return new ColumnValues(layout, values, null);
        }
        if (rowCount > 0 && vector.getNullCount() == rowCount) {
            // No row holds a string (e.g. the padded side of an outer join, whose dictionary is empty): the codes mean nothing.
            java.util.Arrays.fill(values, 0);
            return new ColumnValues(layout, values, StringDictionary.EMPTY);
        }
        if (dictionary == null) {
            if (rowCount > 0) {
                throw new IllegalArgumentException("a " + type + " column needs its string dictionary");
            }
            dictionary = StringDictionary.EMPTY;
        }
        return new ColumnValues(layout, values, compact(dictionary, values));
    }

    /** A wide DECIMAL chunk (Arrow decimal128) as two 64-bit columns: the low words and the high words. */
    static ColumnValues[] readWide(FieldVector vector, int rowCount) {
        ArrowBuf data = vector.getDataBuffer();
        long[] lows = new long[rowCount];
        long[] highs = new long[rowCount];
        for (int i = 0; i < rowCount; i++) {
            lows[i] = data.getLong((long) i * 16);
            highs[i] = data.getLong((long) i * 16 + 8);
        }
        fillNullSlots(vector, lows);
        fillNullSlots(vector, highs);
        return new ColumnValues[] {new ColumnValues(PhysicalLayout.INT64, lows, null), new ColumnValues(PhysicalLayout.INT64, highs, null)};
    }

    private static void fillNullSlots(FieldVector vector, long[] values) {
        if (vector.getNullCount() == 0) {
            return;
        }
        int firstValid = 0;
        while (firstValid < values.length && vector.isNull(firstValid)) {
            firstValid++;
        }
        if (firstValid == values.length) {
            return;
        }
        long previous = values[firstValid];
        for (int i = 0; i < values.length; i++) {
            if (vector.isNull(i)) {
                values[i] = previous;
            } else {
                previous = values[i];
            }
        }
    }

    /**
     * Keeps only the strings the chunk uses, each once, and re-codes {@code codes} in place. A
     * table-wide or derived dictionary may hold many unused or repeated entries; the survivors
     * keep their relative order, so a sorted dictionary stays sorted.
     */
    private static StringDictionary compact(StringDictionary dictionary, long[] codes) {
        boolean[] used = new boolean[dictionary.size()];
        for (long code : codes) {
            if (code < 0 || code >= used.length) {
                throw new IllegalArgumentException("string code " + code + " is outside its dictionary of " + used.length);
            }
            used[(int) code] = true;
        }
        if (dictionary.isUnique() && allTrue(used)) {
            return dictionary; // already exactly the chunk's strings, each once (what an append builds)
        }
        StringDictionary.Builder compacted = new StringDictionary.Builder();
        int[] newCodes = new int[used.length];
        for (int code = 0; code < used.length; code++) {
            if (used[code]) {
                newCodes[code] = compacted.add(dictionary.get(code));
            }
        }
        for (int i = 0; i < codes.length; i++) {
            codes[i] = newCodes[(int) codes[i]];
        }
        return compacted.build();
    }

    private static boolean allTrue(boolean[] flags) {
        for (boolean f : flags) {
            if (!f) {
                return false;
            }
        }
        return true;
    }
}
