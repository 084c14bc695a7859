package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.IntegerStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Each distinct value stored once, and per row a code into them, the codes going through an
 * integer cascade. Always used for strings (the chunk's dictionary, as UTF-8); for numbers,
 * doubles included, when there are few distinct values (the entries are then the distinct 64-bit
 * values in ascending order, so for exact numbers and dates codes compare as the values do).
 *
 * <p>Wire, strings: {@code i32 entryCount, UTF-8 byte length per entry (cascaded stream), the
 * UTF-8 bytes of all entries back to back, codes (cascaded stream)}.
 * <br>Wire, numbers: {@code i32 entryCount, sorted entries (cascaded stream), codes (cascaded stream)}.
 *
 * @param codesCascade how the codes are stored
 */
record Dictionary(Cascade codesCascade) implements ValueEncoding {
    static final byte WIRE_ID = 2;

    /** Sorted distinct values step up by small positive gaps: delta then bitpack fits them. */
    private static final Cascade SORTED_ENTRIES = Cascade.of(Cascade.Layer.DELTA);
    /** String lengths have no order to exploit; equal lengths (CHAR) still pack into 0 bits. */
    private static final Cascade ENTRY_LENGTHS = Cascade.BITPACK_ONLY;

    @Override
    public byte wireId() {
        return WIRE_ID;
    }

    /** E.g. "dict+rle+bitpack". */
    @Override
    public String toString() {
        return "dict+" + codesCascade;
    }

    /** Each value's index in {@code sortedEntries}, which must contain it. */
    static long[] codes(long[] values, long[] sortedEntries) {
        long[] codes = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            codes[i] = Arrays.binarySearch(sortedEntries, values[i]);
        }
        return codes;
    }

    /** Exact size of the numeric entries part (entry count and entries), codes not included. */
    static long analyzeEntries(long[] sortedEntries) {
        return Integer.BYTES + SORTED_ENTRIES.analyze(sortedEntries);
    }

    @Override
    public String encode(ColumnValues column, ByteWriter out) {
        long[] codes;
        if (column.dictionary() != null) {
            writeStrings(column.dictionary(), out);
            codes = column.values();
        } else {
            long[] entries = DistinctValues.sortedUpTo(column.values(), Integer.MAX_VALUE);
            out.putInt(entries.length);
            SORTED_ENTRIES.write(entries, out);
            codes = codes(column.values(), entries);
        }
        return "dict+" + codesCascade.describe(codesCascade.write(codes, out));
    }

    /**
     * Describes a body written by {@link #encode} for {@code count} rows; string entries are
     * decoded (they stay on the host), or taken from {@code strings} when it has them.
     *
     * @param strings where string entries come from; null for a numeric dictionary
     */
    static ChunkValues.Dictionary read(ByteReader in, StringEntriesSource strings, int count) {
        int entryCount = in.readCount();
        ChunkValues.DictionaryEntries entries = strings != null
                ? new ChunkValues.StringEntries(readStrings(in, entryCount, strings))
                : new ChunkValues.NumericEntries(Cascade.readStream(in, entryCount));
        return new ChunkValues.Dictionary(entries, Cascade.readStream(in, count));
    }

    /**
     * Decodes a described body into an Arrow data buffer.
     *
     * @return the chunk's string dictionary, or null for numbers
     */
    static StringDictionary decode(ChunkValues.Dictionary body, PhysicalLayout layout, ArrowBuf data) {
        if (body.entries() instanceof ChunkValues.StringEntries strings) {
            Cascade.decode(body.codes(), layout, data);
            return strings.strings();
        }
        IntegerStream sortedValues = ((ChunkValues.NumericEntries) body.entries()).sortedValues();
        long[] entries = new long[sortedValues.count()];
        Cascade.decode(sortedValues, entries, 0);
        long[] values = new long[body.codes().count()];
        Cascade.decode(body.codes(), values, 0);
        for (int i = 0; i < values.length; i++) {
            values[i] = entries[(int) values[i]]; // codes to values, in place
        }
        layout.store(values, values.length, data);
        return null;
    }

    private static void writeStrings(StringDictionary dictionary, ByteWriter out) {
        if (dictionary.utf8() != null) {
            writeUtf8(dictionary.utf8(), out);
            return;
        }
        byte[][] utf8 = new byte[dictionary.size()][];
        long[] lengths = new long[utf8.length];
        for (int code = 0; code < utf8.length; code++) {
            utf8[code] = dictionary.get(code).getBytes(StandardCharsets.UTF_8);
            lengths[code] = utf8[code].length;
        }
        out.putInt(utf8.length);
        ENTRY_LENGTHS.write(lengths, out);
        for (byte[] entry : utf8) {
            out.putBytes(entry);
        }
    }

    /** As {@link #writeStrings}, the entries' bytes copied as they lie, back to back already. */
    private static void writeUtf8(Utf8Strings entries, ByteWriter out) {
        long[] lengths = new long[entries.size()];
        for (int code = 0; code < lengths.length; code++) {
            lengths[code] = entries.length(code);
        }
        out.putInt(lengths.length);
        ENTRY_LENGTHS.write(lengths, out);
        if (lengths.length > 0) {
            int from = entries.offset(0);
            out.putBytes(entries.bytes(), from, entries.offset(lengths.length - 1) + entries.length(lengths.length - 1) - from);
        }
    }

    private static StringDictionary readStrings(ByteReader in, int entryCount, StringEntriesSource source) {
        int start = in.position();
        StringEntriesSource.Entries entries = source.strings(() -> {
            long[] lengths = new long[entryCount];
            Cascade.read(in, lengths, entryCount);
            long totalBytes = 0;
            for (long length : lengths) {
                if (length < 0) {
                    throw new IllegalArgumentException("corrupt encoded chunk: string length " + length);
                }
                totalBytes += length;
            }
            StringDictionary parsed = parseStrings(lengths, in.readSlice(totalBytes));
            return new StringEntriesSource.Entries(parsed, in.position() - start);
        });
        in.position(start + entries.encodedBytes()); // where the codes start, parsed now or before
        StringDictionary strings = entries.strings();
        if (strings.size() != entryCount) {
            throw new IllegalStateException("a chunk of " + entryCount + " dictionary entries was given " + strings.size());
        }
        return strings;
    }

    /**
     * The entries as UTF-8 bytes, copied once: a String is made of an entry only when a reader asks
     * for it ({@link StringDictionary#get}), so columns a query only carries (TPC-H q10's customer
     * strings: 20 of millions reach its result) cost a copy, not a String per entry.
     */
    private static StringDictionary parseStrings(long[] lengths, ByteBuffer bytes) {
        int[] offsets = new int[lengths.length + 1];
        for (int code = 0; code < lengths.length; code++) {
            long end = offsets[code] + lengths[code];
            if (end > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("corrupt encoded chunk: " + end + " bytes of string entries");
            }
            offsets[code + 1] = (int) end;
        }
        byte[] entries = new byte[offsets[lengths.length]];
        bytes.get(entries);
        return StringDictionary.ofUtf8(Utf8Strings.of(entries, offsets), true);
    }
}
