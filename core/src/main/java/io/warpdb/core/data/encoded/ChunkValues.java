package io.warpdb.core.data.encoded;

import io.warpdb.core.batch.StringDictionary;

/**
 * A chunk's values, one per row. A NULL row holds the nearest earlier non-null value (the first
 * one for leading NULLs), so NULLs extend runs and deltas rather than break them.
 */
public sealed interface ChunkValues permits ChunkValues.Plain, ChunkValues.Cascaded, ChunkValues.Dictionary {
    /** The values exactly as an Arrow data buffer of the chunk's {@link ChunkLayout} holds them. */
    record Plain(ChunkSlice bytes) implements ChunkValues {
    }

    /** The values as one integer stream (DOUBLE as raw bits, BOOLEAN as 0/1). */
    record Cascaded(IntegerStream values) implements ChunkValues {
    }

    /** Per row a code into {@code entries}. */
    record Dictionary(DictionaryEntries entries, IntegerStream codes) implements ChunkValues {
    }

    /** What a dictionary's codes point to. */
    sealed interface DictionaryEntries permits StringEntries, NumericEntries {
    }

    /**
     * VARCHAR/CHAR: the chunk's strings, each once; the codes stay codes (executors compare
     * strings through their dictionary).
     */
    record StringEntries(StringDictionary strings) implements DictionaryEntries {
    }

    /** Other types: the chunk's distinct values in ascending order; a row's value is {@code sortedValues[code]}. */
    record NumericEntries(IntegerStream sortedValues) implements DictionaryEntries {
    }
}
