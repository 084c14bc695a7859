package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.warpdb.core.types.DataType;
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
 * Every encoding alone and every cascade the selector can produce, for every type and data shape,
 * at sizes around bit and word boundaries: decoding must give back exactly the rows encoded.
 */
class ChunkCodecRoundTripTest {
    private static final int[] SIZES = {0, 1, 63, 64, 65, 1000};
    private static final int LARGE = 1 << 20;

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
    void everyEncodingRoundTrips(DataType type, Pattern pattern) {
        for (int size : SIZES) {
            Object[] rows = pattern.rows(type.kind(), size, size);
            roundTrip(type, rows, null);
            for (ValueEncoding encoding : TestColumns.encodings(type)) {
                roundTrip(type, rows, encoding);
            }
        }
    }

    static Stream<Arguments> largeChunks() {
        List<Arguments> cases = new ArrayList<>();
        for (DataType type : TestColumns.TYPES) {
            List<Pattern> patterns = type.kind().isString()
                    // (a million distinct strings would mostly time the test's own string building)
                    ? List.of(Pattern.LONG_RUNS, Pattern.MIXED_NULL)
                    : List.of(Pattern.SORTED, Pattern.MIXED_NULL);
            for (Pattern pattern : patterns) {
                cases.add(Arguments.of(type, pattern));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("largeChunks")
    void largeChunkRoundTrips(DataType type, Pattern pattern) {
        roundTrip(type, pattern.rows(type.kind(), LARGE, 7), null);
    }

    @Test
    void everyEncodingRoundTripsOnALargeChunk() {
        Object[] rows = Pattern.LONG_RUNS.rows(DataType.BIGINT.kind(), LARGE, 11);
        for (ValueEncoding encoding : TestColumns.encodings(DataType.BIGINT)) {
            roundTrip(DataType.BIGINT, rows, encoding);
        }
    }

    @Test
    void oneScratchForManyChunksEncodesEachAsAFreshOneWould() {
        // Every type and shape one after another, the same size twice in a row (the scratch's arrays are then
        // reused as they are), a large chunk and then small ones, NULLs after none: each encoding must be the bytes
        // of a fresh encode, and decode to its rows.
        ChunkScratch scratch = new ChunkScratch();
        int[] sizes = {65, 65, LARGE, 1000, 0, 1, 1000};
        for (int size : sizes) {
            for (DataType type : TestColumns.TYPES) {
                for (Pattern pattern : List.of(Pattern.MIXED_NULL, Pattern.SORTED, Pattern.RANDOM, Pattern.LONG_RUNS)) {
                    if (size == LARGE && (pattern == Pattern.RANDOM || pattern == Pattern.MIXED_NULL)) {
                        continue; // (a million random values would mostly time the test's own row building)
                    }
                    Object[] rows = pattern.rows(type.kind(), size, size + 3);
                    try (Column column = TestColumns.column(type, rows, allocator)) {
                        EncodedChunk reused = ChunkCodec.encode(column.vector(), type, column.dictionary(), size, scratch);
                        EncodedChunk fresh = ChunkCodec.encode(column.vector(), type, column.dictionary(), size);
                        String what = type + " " + pattern + " " + size + " rows";
                        assertArrayEquals(fresh.bytes(), reused.bytes(), what);
                        try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(reused.bytes()), type, allocator)) {
                            assertArrayEquals(TestColumns.comparable(rows), TestColumns.rows(decoded.vector(), type, decoded.dictionary()), what);
                        }
                    }
                }
            }
        }
    }

    /** Encodes rows (with {@code forced}, or as the selector chooses when null), decodes, compares. */
    private void roundTrip(DataType type, Object[] rows, ValueEncoding forced) {
        try (Column column = TestColumns.column(type, rows, allocator)) {
            EncodedChunk encoded = ChunkCodec.encode(column.vector(), type, column.dictionary(), rows.length, forced);
            try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(encoded.bytes()), type, allocator)) {
                String what = type + " " + rows.length + " rows as " + encoded.description();
                assertEquals(rows.length, decoded.vector().getValueCount(), what);
                assertEquals(type.arrowType(), decoded.vector().getField().getType(), what);
                if (type.kind().isString()) {
                    assertNotNull(decoded.dictionary(), what);
                } else {
                    assertNull(decoded.dictionary(), what);
                }
                assertArrayEquals(TestColumns.comparable(rows),
                        TestColumns.rows(decoded.vector(), type, decoded.dictionary()), what);
            }
        }
    }
}
