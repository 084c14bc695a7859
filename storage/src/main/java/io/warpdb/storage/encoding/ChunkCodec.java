package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.encoded.ChunkValidity;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes one column chunk (a row group's worth of one column) into self-describing bytes, and
 * back into an Arrow vector. The wire format is described in {@code package-info.java}.
 */
public final class ChunkCodec {
    /** Raised whenever the wire format changes incompatibly. */
    static final byte FORMAT_VERSION = 1;
    /** The layout byte of a wide DECIMAL's chunk: its low and its high 64-bit words as two value streams. */
    static final int WIDE_LAYOUT_ID = 3;

    private ChunkCodec() {
    }

    /**
     * Encodes rows [0, rowCount) of {@code vector}, choosing the smallest encoding for them.
     *
     * @param dictionaryOrNull for VARCHAR/CHAR the dictionary behind the codes (it may hold unused
     *     or repeated entries; the chunk keeps only what it uses); ignored for other types
     */
    public static EncodedChunk encode(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount) {
        return encode(vector, type, dictionaryOrNull, rowCount, new ChunkScratch());
    }

    /** As {@link #encode(FieldVector, DataType, StringDictionary, int)}, in working memory kept for the caller's next chunk. */
    public static EncodedChunk encode(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount,
            ChunkScratch scratch) {
        return encode(vector, type, dictionaryOrNull, rowCount, null, scratch);
    }

    /**
     * The value encodings the selector can choose for a column of {@code type}, by name (e.g.
     * "plain", "rle+delta+bitpack", "dict+bitpack"): for tests and benchmarks that force each.
     */
    public static List<String> candidateEncodings(DataType type) {
        return CascadeSelector.candidates(type).stream().map(ValueEncoding::toString).toList();
    }

    /**
     * The value encoding, one of {@link #candidateEncodings}, that the selector chooses for rows
     * [0, rowCount) of {@code vector} (a narrow column: a wide DECIMAL chooses per word stream):
     * for a caller that encodes many chunks of one column alike and samples once, with
     * {@link #encodeAs} for the rest, as seed 000 section 6.4 treats the choice as a property of the
     * column (the cluster's wire compression).
     */
    public static String chooseEncoding(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount) {
        if (type.isWideDecimal()) {
            throw new IllegalArgumentException("a " + type + " chunk chooses an encoding per word stream");
        }
        return CascadeSelector.choose(ColumnValues.read(vector, type, dictionaryOrNull, rowCount, new ChunkScratch())).toString();
    }

    /** As {@link #encode(FieldVector, DataType, StringDictionary, int)}, storing the values in {@code encoding}, one of {@link #candidateEncodings}. */
    public static EncodedChunk encodeAs(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount,
            String encoding) {
        ValueEncoding forced = CascadeSelector.candidates(type).stream().filter(e -> e.toString().equals(encoding)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no value encoding " + encoding + " for " + type));
        return encode(vector, type, dictionaryOrNull, rowCount, forced, new ChunkScratch());
    }

    /** As above, with {@code forced} (when not null) used instead of the selector's choice; for tests. */
    static EncodedChunk encode(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount,
            ValueEncoding forced) {
        return encode(vector, type, dictionaryOrNull, rowCount, forced, new ChunkScratch());
    }

    private static EncodedChunk encode(FieldVector vector, DataType type, StringDictionary dictionaryOrNull, int rowCount,
            ValueEncoding forced, ChunkScratch scratch) {
        if (!vector.getField().getType().equals(type.arrowType())) {
            throw new IllegalArgumentException("a " + type + " column needs a vector of " + type.arrowType()
                    + ", not " + vector.getField().getType());
        }
        if (rowCount < 0 || rowCount > vector.getValueCount()) {
            throw new IllegalArgumentException("rowCount " + rowCount + " outside the vector's " + vector.getValueCount() + " rows");
        }
        PhysicalLayout layout = PhysicalLayout.of(type.kind());
        ByteWriter out = scratch.writer(rowCount + 64); // a byte a row: most encoded chunks need about that or less
        out.putByte(FORMAT_VERSION);
        out.putByte(type.isWideDecimal() ? WIDE_LAYOUT_ID : layout.wireId);
        out.putInt(rowCount);
        Validity.Kind validity = Validity.encode(vector, rowCount, out);
        if (validity == Validity.Kind.ALL_NULL) {
            return new EncodedChunk(out.toByteArray(), validity.description);
        }
        if (type.isWideDecimal()) {
            // Each word stream takes the encoding that suits it: small values have a constant high word (one RLE run).
            ColumnValues[] words = ColumnValues.readWide(vector, rowCount);
            String lows = forced != null ? writeValues(forced, words[0], out) : writeChosenValues(words[0], out);
            String highs = forced != null ? writeValues(forced, words[1], out) : writeChosenValues(words[1], out);
            return new EncodedChunk(out.toByteArray(), "low " + lows + ", high " + highs + validity.description);
        }
        ColumnValues column = ColumnValues.read(vector, type, dictionaryOrNull, rowCount, scratch);
        String description = forced != null ? writeValues(forced, column, out) : writeChosenValues(column, out);
        return new EncodedChunk(out.toByteArray(), description + validity.description);
    }

    /**
     * Writes the values the way {@link CascadeSelector} chooses, but falls back to plain should
     * the result be larger after all (the choice rests on a sample), so a numeric chunk never
     * costs more than its plain size and a few header bytes.
     */
    private static String writeChosenValues(ColumnValues column, ByteWriter out) {
        int start = out.size();
        String description = writeValues(CascadeSelector.choose(column), column, out);
        boolean stringsMustStayDictionary = column.dictionary() != null;
        if (!stringsMustStayDictionary && out.size() - start - 1 > Plain.analyze(column)) {
            out.truncate(start);
            description = writeValues(Plain.INSTANCE, column, out);
        }
        return description;
    }

    private static String writeValues(ValueEncoding encoding, ColumnValues column, ByteWriter out) {
        out.putByte(encoding.wireId());
        return encoding.encode(column, out);
    }

    /** Decodes a chunk into a new vector named "" owned by the caller. */
    public static DecodedColumn decode(ByteBuffer encoded, DataType type, BufferAllocator allocator) {
        return decode(encoded, type, "", allocator);
    }

    /**
     * Decodes the chunk in the remaining bytes of {@code encoded} (whose position is left as it
     * is) into a new vector, allocated from {@code allocator} and owned by the caller.
     *
     * @param type the type the chunk was encoded with (its physical layout is checked)
     */
    public static DecodedColumn decode(ByteBuffer encoded, DataType type, String name, BufferAllocator allocator) {
        return decode(encoded, type, name, allocator, StringEntriesSource.PARSE);
    }

    /** As {@link #decode(ByteBuffer, DataType, String, BufferAllocator)}, a string dictionary taken from {@code strings}. */
    public static DecodedColumn decode(ByteBuffer encoded, DataType type, String name, BufferAllocator allocator,
            StringEntriesSource strings) {
        if (type.isWideDecimal()) {
            return decodeWide(encoded, type, name, allocator);
        }
        EncodedColumnChunk chunk = describe(encoded, type, strings);
        int rowCount = chunk.rowCount();
        PhysicalLayout layout = PhysicalLayout.of(type.kind());
        FieldVector vector = Vectors.allocate(name, type, rowCount, allocator);
        try {
            StringDictionary dictionary = type.kind().isString() ? StringDictionary.EMPTY : null;
            Validity.decode(chunk.validity(), rowCount, vector.getValidityBuffer());
            if (chunk.values() != null) {
                StringDictionary decoded = decodeValues(chunk.values(), layout, vector.getDataBuffer());
                if (decoded != null) {
                    dictionary = decoded;
                }
            }
            vector.setValueCount(rowCount);
            return new DecodedColumn(vector, dictionary);
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /** A wide DECIMAL's chunk: the two word streams decoded each into a scratch buffer, then interleaved into decimal128 values. */
    private static DecodedColumn decodeWide(ByteBuffer encoded, DataType type, String name, BufferAllocator allocator) {
        ByteReader in = new ByteReader(encoded.duplicate());
        int version = in.readByte();
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException("encoded chunk has format version " + version + ", this build reads " + FORMAT_VERSION);
        }
        int layoutId = in.readByte();
        if (layoutId != WIDE_LAYOUT_ID) {
            throw new IllegalArgumentException("encoded chunk holds " + PhysicalLayout.ofWireId(layoutId) + " values, which a "
                    + type + " column cannot");
        }
        int rowCount = in.readCount();
        ChunkValidity validity = Validity.read(in, rowCount);
        FieldVector vector = Vectors.allocate(name, type, rowCount, allocator);
        try {
            Validity.decode(validity, rowCount, vector.getValidityBuffer());
            if (!(validity instanceof ChunkValidity.AllNull)) {
                ArrowBuf data = vector.getDataBuffer();
                for (int word = 0; word < 2; word++) {
                    ChunkValues values = readValues(in, DataType.BIGINT, PhysicalLayout.INT64, rowCount, StringEntriesSource.PARSE);
                    try (ArrowBuf scratch = allocator.buffer(Math.max(1, (long) rowCount * Long.BYTES))) {
                        decodeValues(values, PhysicalLayout.INT64, scratch);
                        for (int i = 0; i < rowCount; i++) {
                            data.setLong((long) i * 16 + word * 8L, scratch.getLong((long) i * Long.BYTES));
                        }
                    }
                }
            }
            vector.setValueCount(rowCount);
            return new DecodedColumn(vector, null);
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /**
     * Parses the headers of the chunk in the remaining bytes of {@code encoded} (whose position is
     * left as it is) into a description whose buffers are slices of those bytes: nothing is
     * decoded but a string dictionary's entries. {@link #decode} decodes that description.
     *
     * @param type the type the chunk was encoded with (its physical layout is checked)
     */
    public static EncodedColumnChunk describe(ByteBuffer encoded, DataType type) {
        return describe(encoded, type, StringEntriesSource.PARSE);
    }

    /** As {@link #describe(ByteBuffer, DataType)}, a string dictionary taken from {@code strings}. */
    public static EncodedColumnChunk describe(ByteBuffer encoded, DataType type, StringEntriesSource strings) {
        if (type.isWideDecimal()) {
            throw new IllegalArgumentException("a " + type + " chunk (two word streams) has no single-stream description");
        }
        ByteReader in = new ByteReader(encoded);
        int version = in.readByte();
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException("encoded chunk has format version " + version + ", this build reads " + FORMAT_VERSION);
        }
        PhysicalLayout layout = PhysicalLayout.ofWireId(in.readByte());
        if (layout != PhysicalLayout.of(type.kind())) {
            throw new IllegalArgumentException("encoded chunk holds " + layout + " values, which a " + type + " column cannot");
        }
        int rowCount = in.readCount();
        ChunkValidity validity = Validity.read(in, rowCount);
        ChunkValues values = validity instanceof ChunkValidity.AllNull ? null : readValues(in, type, layout, rowCount, strings);
        return new EncodedColumnChunk(layout.described, rowCount, validity, values);
    }

    private static ChunkValues readValues(ByteReader in, DataType type, PhysicalLayout layout, int rowCount,
            StringEntriesSource strings) {
        byte encoding = in.readByte();
        return switch (encoding) {
            case Plain.WIRE_ID -> Plain.read(in, layout, rowCount);
            case Cascade.WIRE_ID -> new ChunkValues.Cascaded(Cascade.readStream(in, rowCount));
            case Dictionary.WIRE_ID -> Dictionary.read(in, type.kind().isString() ? strings : null, rowCount);
            default -> throw new IllegalArgumentException("corrupt encoded chunk: unknown value encoding " + encoding);
        };
    }

    /** Decodes described values into {@code data}; returns the string dictionary for strings, else null. */
    private static StringDictionary decodeValues(ChunkValues values, PhysicalLayout layout, ArrowBuf data) {
        if (values instanceof ChunkValues.Plain plain) {
            Plain.decode(plain, data);
        } else if (values instanceof ChunkValues.Cascaded cascaded) {
            Cascade.decode(cascaded.values(), layout, data);
        } else {
            return Dictionary.decode((ChunkValues.Dictionary) values, layout, data);
        }
        return null;
    }
}
