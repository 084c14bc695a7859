package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.data.encoded.IntegerStream;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.storage.encoding.TestColumns.Column;
import io.warpdb.storage.encoding.TestColumns.Pattern;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ChunkCodec#describe}: for every encoding and cascade the selector can choose, every type
 * and data shape, the description decoded by an independent {@link ReferenceDecoder} gives the rows
 * encoded, and it has the structure the encoding implies.
 */
class ChunkDescriptionTest {
    private static final int[] SIZES = {0, 1, 63, 64, 65, 1000};

    private BufferAllocator allocator;

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown() {
        assertEquals(0, allocator.getAllocatedMemory(), "leaked Arrow memory");
        allocator.close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.warpdb.storage.encoding.TestColumns#typesAndPatterns")
    void everyEncodingIsDescribedExactly(DataType type, Pattern pattern) {
        for (int size : SIZES) {
            Object[] rows = pattern.rows(type.kind(), size, size);
            check(type, rows, null);
            for (ValueEncoding encoding : TestColumns.encodings(type)) {
                check(type, rows, encoding);
            }
        }
    }

    @Test
    void cascadesAreDescribedLayerByLayerOutermostFirst() {
        long[] keys = new long[1000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i / 4 * 3L;
        }
        ByteWriter out = new ByteWriter();
        Cascade.interleaved(2, 1).write(keys, out);
        IntegerStream stream = Cascade.readStream(new ByteReader(ByteBuffer.wrap(out.toByteArray())), keys.length);
        IntegerStream.RunLengths outer = assertInstanceOf(IntegerStream.RunLengths.class, stream);
        assertEquals(250, outer.runCount());
        IntegerStream.Deltas deltas = assertInstanceOf(IntegerStream.Deltas.class, outer.runValues());
        assertEquals(0, deltas.first());
        IntegerStream.RunLengths inner = assertInstanceOf(IntegerStream.RunLengths.class, deltas.differences());
        assertEquals(1, inner.runCount(), "249 equal gaps of 3");
        IntegerStream.BitPacked gaps = assertInstanceOf(IntegerStream.BitPacked.class, inner.runValues());
        assertEquals(3, gaps.reference());
        assertEquals(0, gaps.width());
        assertArrayEquals(keys, ReferenceDecoder.stream(stream));
    }

    @Test
    void slicesPointIntoTheChunkWhereverItStartsInItsBuffer() {
        Object[] rows = Pattern.RANDOM.rows(TypeKind.BIGINT, 100, 3);
        try (Column column = TestColumns.column(DataType.BIGINT, rows, allocator)) {
            byte[] bytes = ChunkCodec.encode(column.vector(), DataType.BIGINT, null, rows.length, Cascade.BITPACK_ONLY).bytes();
            ByteBuffer padded = ByteBuffer.allocate(bytes.length + 5);
            padded.position(5);
            padded.put(bytes).position(5);
            EncodedColumnChunk chunk = ChunkCodec.describe(padded, DataType.BIGINT);
            assertEquals(5, padded.position(), "describe leaves the position as it is");
            IntegerStream.BitPacked packed = (IntegerStream.BitPacked) ((ChunkValues.Cascaded) chunk.values()).values();
            assertEquals(bytes.length, packed.words().chunk().capacity(), "the chunk's bytes from its first");
            assertEquals(bytes.length - packed.words().length(), packed.words().offset(), "the words end the chunk");
            assertArrayEquals(TestColumns.comparable(rows), expected(DataType.BIGINT, ReferenceDecoder.decode(chunk), null));
        }
    }

    private void check(DataType type, Object[] rows, ValueEncoding forced) {
        try (Column column = TestColumns.column(type, rows, allocator)) {
            EncodedChunk encoded = ChunkCodec.encode(column.vector(), type, column.dictionary(), rows.length, forced);
            String what = type + " " + rows.length + " rows as " + encoded.description();
            EncodedColumnChunk chunk = ChunkCodec.describe(ByteBuffer.wrap(encoded.bytes()), type);
            assertEquals(rows.length, chunk.rowCount(), what);
            assertSame(PhysicalLayout.of(type.kind()).described, chunk.layout(), what);
            StringDictionary dictionary = null;
            if (chunk.values() != null) {
                assertStructure(forced, chunk.values(), what);
                if (chunk.values() instanceof ChunkValues.Dictionary d && d.entries() instanceof ChunkValues.StringEntries s) {
                    dictionary = s.strings();
                }
            }
            assertArrayEquals(TestColumns.comparable(rows), expected(type, ReferenceDecoder.decode(chunk), dictionary), what);
        }
    }

    private static void assertStructure(ValueEncoding forced, ChunkValues values, String what) {
        if (forced instanceof Plain) {
            assertInstanceOf(ChunkValues.Plain.class, values, what);
        } else if (forced instanceof Cascade cascade) {
            assertLayers(cascade, assertInstanceOf(ChunkValues.Cascaded.class, values, what).values(), what);
        } else if (forced instanceof Dictionary dictionary) {
            assertLayers(dictionary.codesCascade(), assertInstanceOf(ChunkValues.Dictionary.class, values, what).codes(), what);
        }
    }

    /** The stream's layers, outermost first, are the cascade's (streams of no values stop early). */
    private static void assertLayers(Cascade cascade, IntegerStream stream, String what) {
        for (Cascade.Layer layer : cascade.layers()) {
            if (stream.count() == 0 && !(stream instanceof IntegerStream.RunLengths)) {
                return;
            }
            if (layer == Cascade.Layer.RUN_LENGTH) {
                stream = assertInstanceOf(IntegerStream.RunLengths.class, stream, what).runValues();
            } else {
                stream = assertInstanceOf(IntegerStream.Deltas.class, stream, what).differences();
            }
        }
        assertInstanceOf(IntegerStream.BitPacked.class, stream, what);
    }

    /** Reference rows in the form {@link TestColumns#rows} gives. */
    private static Object[] expected(DataType type, Long[] decoded, StringDictionary dictionary) {
        Object[] rows = new Object[decoded.length];
        for (int i = 0; i < rows.length; i++) {
            Long v = decoded[i];
            rows[i] = v == null ? null : switch (type.kind()) {
                case BOOLEAN -> v != 0;
                case INTEGER, DATE -> (int) (long) v;
                case BIGINT, DECIMAL, TIMESTAMP, INTERVAL, DOUBLE -> v;
                case VARCHAR, CHAR -> dictionary.get((int) (long) v);
            };
        }
        return rows;
    }
}
