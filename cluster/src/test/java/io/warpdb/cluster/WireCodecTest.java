package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Batches through the frames of the UCX transport, compressed and not: every type, NULLs, an empty batch, and what compression saves. */
class WireCodecTest {
    private static final Schema SCHEMA = EveryType.SCHEMA;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        allocator.close(); // fails when a vector was not closed
    }

    @Test
    void everyTypeRoundTripsCompressedAndPlain() {
        for (int rows : new int[] {0, 1, 3000}) {
            for (boolean compressed : new boolean[] {true, false}) {
                try (Batch batch = batch(rows)) {
                    assertSameRows(batch, roundTrip(batch, compressed), rows + " rows, compressed " + compressed);
                }
            }
        }
    }

    @Test
    void encodingsChosenOnOneBatchStayLosslessOnTheNextOnes() {
        ByteBuffer schemaFrame;
        List<ArrowBuf> frames = new ArrayList<>();
        int[] sizes = {1, 3000, 0, 3000, 7};
        try (WireCodec sender = WireCodec.forSending(SCHEMA, true, allocator, new WireCodec.Choices(SCHEMA))) {
            schemaFrame = sender.schemaFrame();
            for (int rows : sizes) {
                try (Batch batch = batch(rows)) {
                    frames.add(sender.encode(batch));
                }
            }
        }
        try (WireCodec receiver = WireCodec.forReceiving(schemaFrame, allocator)) {
            for (int i = 0; i < sizes.length; i++) {
                try (Batch expected = batch(sizes[i]); ArrowBuf frame = frames.get(i)) {
                    assertSameRows(expected, receiver.decode(frame), "batch " + i + " of the stream");
                }
            }
        }
    }

    @Test
    void compressionMakesSortedKeysAndFewValuesAtLeastTwiceSmaller() {
        Schema schema = new Schema(List.of(new Field("key", DataType.BIGINT), new Field("priority", DataType.varchar(15))));
        int rows = 60_000;
        FieldVector keys = Vectors.allocate("key", DataType.BIGINT, rows, allocator);
        FieldVector codes = Vectors.allocate("priority", DataType.varchar(15), rows, allocator);
        for (int r = 0; r < rows; r++) {
            Vectors.setNormalized(keys, DataType.BIGINT, r, 1_000_000L + r * 4L + r % 3);
            Vectors.setNormalized(codes, DataType.varchar(15), r, r % 5);
        }
        keys.setValueCount(rows);
        codes.setValueCount(rows);
        StringDictionary priorities = StringDictionary.ofValues(new String[] {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"});
        try (Batch batch = new Batch(schema, List.of(keys, codes), java.util.Arrays.asList(null, priorities), rows)) {
            long plain = frameBytes(batch, false);
            long compressed = frameBytes(batch, true);
            assertTrue(compressed * 2 <= plain, "compressed " + compressed + " bytes, plain " + plain);
            assertSameRows(batch, roundTrip(batch, true), "compressed");
        }
    }

    @Test
    void aStringColumnOfNullsAloneWithAnEmptyDictionaryRoundTrips() {
        // The padded side of an outer join that matched nothing: every row NULL, no string in its dictionary.
        Schema schema = new Schema(List.of(new Field("w", DataType.varchar(10))));
        int rows = 100;
        FieldVector codes = Vectors.allocate("w", DataType.varchar(10), rows, allocator);
        for (int r = 0; r < rows; r++) {
            Vectors.setNormalized(codes, DataType.varchar(10), r, null);
        }
        codes.setValueCount(rows);
        try (Batch batch = new Batch(schema, List.of(codes), List.of(StringDictionary.EMPTY), rows)) {
            for (boolean compressed : new boolean[] {true, false}) {
                assertSameRows(batch, roundTrip(batch, compressed), "compressed " + compressed);
            }
        }
    }

    /**
     * A stored segment's dictionary, held as UTF-8 (some entries unused, others repeated, NULLs among
     * them): its bytes travel as they are, and the receiver's dictionary holds each value once, as UTF-8.
     */
    @Test
    void stringsOfAUtf8DictionaryArriveAsAUtf8DictionaryOfTheirDistinctValues() {
        String[] values = {"Grüße", "", "東京", "plain", "unused"};
        io.warpdb.core.batch.Utf8Strings.Builder entries = new io.warpdb.core.batch.Utf8Strings.Builder(values.length, 64);
        for (String v : values) {
            byte[] b = v.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            entries.add(b, 0, b.length);
        }
        Schema schema = new Schema(List.of(new Field("s", DataType.varchar(20))));
        int rows = 1000;
        FieldVector codes = Vectors.allocate("s", DataType.varchar(20), rows, allocator);
        for (int r = 0; r < rows; r++) {
            Vectors.setNormalized(codes, DataType.varchar(20), r, r % 7 == 6 ? null : r % 4);
        }
        codes.setValueCount(rows);
        try (Batch batch = new Batch(schema, List.of(codes), List.of(StringDictionary.ofUtf8(entries.build(), true)), rows)) {
            try (Batch received = roundTrip(batch, false)) {
                assertTrue(received.dictionary(0).utf8() != null, "kept as UTF-8");
                assertEquals(4, received.dictionary(0).size(), "the four values the rows use, once each");
                for (int r = 0; r < rows; r++) {
                    assertEquals(batch.getObject(0, r), received.getObject(0, r), "row " + r);
                }
            }
        }
    }

    private long frameBytes(Batch batch, boolean compressed) {
        try (WireCodec codec = WireCodec.forSending(batch.schema(), compressed, allocator, new WireCodec.Choices(batch.schema()));
                ArrowBuf frame = codec.encode(batch)) {
            return frame.writerIndex();
        }
    }

    private Batch roundTrip(Batch batch, boolean compressed) {
        ByteBuffer schemaFrame;
        ByteBuffer received;
        try (WireCodec sender = WireCodec.forSending(batch.schema(), compressed, allocator, new WireCodec.Choices(batch.schema()));
                ArrowBuf batchFrame = sender.encode(batch)) {
            schemaFrame = sender.schemaFrame();
            // as UCX delivers a large frame: in a direct buffer of the JDK's, which the decoded batch may share
            received = ByteBuffer.allocateDirect((int) batchFrame.writerIndex());
            batchFrame.getBytes(0, received);
            received.clear();
        }
        try (WireCodec receiver = WireCodec.forReceiving(schemaFrame, allocator);
                ArrowBuf frame = WireCodec.frameOf(received, allocator)) {
            assertEquals(batch.schema(), receiver.schema());
            return receiver.decode(frame);
        }
    }

    private static void assertSameRows(Batch expected, Batch actual, String what) {
        try (actual) {
            assertEquals(expected.rowCount(), actual.rowCount(), what);
            for (int r = 0; r < expected.rowCount(); r++) {
                for (int c = 0; c < expected.columnCount(); c++) {
                    assertEquals(expected.getObject(c, r), actual.getObject(c, r), what + ": row " + r + ", column " + c);
                }
            }
        }
    }

    private Batch batch(int rows) {
        return EveryType.batch(rows, allocator);
    }
}
