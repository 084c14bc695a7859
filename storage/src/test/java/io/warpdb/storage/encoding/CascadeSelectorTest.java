package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.TestColumns.Column;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the selector picks for typical column shapes, and how large the result is. */
class CascadeSelectorTest {
    private static final int ROWS = 1 << 20;
    /** Format version, layout, row count, validity kind, value encoding id. */
    private static final int CHUNK_HEADER_BYTES = 8;

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

    @Test
    void sortedConsecutiveKeysTakeDeltaAndPackIntoZeroBits() {
        EncodedChunk chunk = encode(DataType.BIGINT, i -> 1_000_000_000L + i);
        assertEquals("delta+bitpack(0)", chunk.description());
        assertTrue(chunk.bytes().length < 64, "1M sorted keys in " + chunk.bytes().length + " bytes");
    }

    /** Like TPC-H's l_orderkey: sorted, 8 keys used out of every 32, each repeated 1..7 times. */
    @Test
    void repeatedSparseSortedKeysTakeTwoRunLengthLayersAndADelta() {
        Random random = new Random(1);
        long[] keys = new long[ROWS];
        long key = 1;
        for (int i = 0; i < ROWS; ) {
            for (int repeat = 1 + random.nextInt(7); repeat > 0 && i < ROWS; repeat--) {
                keys[i++] = key;
            }
            key = key % 32 == 8 ? key + 25 : key + 1;
        }
        EncodedChunk chunk = encode(DataType.BIGINT, i -> keys[i]);
        assertEquals("rle+delta+rle+bitpack(5)", chunk.description(), "the paper's choice for L_ORDERKEY");
        // per key: 3 bits of run length, and per 8 keys two (gap, run) pairs of 5 + 3 bits
        long keyCount = key / 32 * 8;
        assertTrue(chunk.bytes().length < keyCount * 5 / 8 + 1024, chunk.bytes().length + " bytes for " + keyCount + " keys");
    }

    @Test
    void longRunsTakeRunLength() {
        Random random = new Random(2);
        long[] runValues = random.longs(ROWS / 1000 + 1, 0, 1000).toArray();
        EncodedChunk chunk = encode(DataType.INTEGER, i -> (int) runValues[i / 1000]);
        assertEquals("rle+bitpack(10)", chunk.description());
        // 1049 runs of 10-bit values and 9-bit lengths (the last run is short: 576 to 1000)
        assertTrue(chunk.bytes().length < 4096, chunk.bytes().length + " bytes");
    }

    @Test
    void smallRangeRandomValuesArePackedInTheirBitWidth() {
        Random random = new Random(3);
        EncodedChunk chunk = encode(DataType.INTEGER, i -> 1000 + random.nextInt(16));
        assertEquals("bitpack(4)", chunk.description());
        assertEquals(ROWS / 2, chunk.bytes().length, 64);
    }

    @Test
    void fullRangeRandomLongsStayPlain() {
        Random random = new Random(4);
        EncodedChunk chunk = encode(DataType.BIGINT, i -> random.nextLong());
        assertEquals("plain", chunk.description());
        assertEquals(8L * ROWS + CHUNK_HEADER_BYTES, chunk.bytes().length);
    }

    @Test
    void lowCardinalityStringsTakeADictionaryOfBitPackedCodes() {
        Random random = new Random(5);
        String[] flags = {"PENDING", "SHIPPED", "RETURNED", "LOST", "ÜBERFÄLLIG"};
        EncodedChunk chunk = encode(DataType.varchar(12), i -> flags[random.nextInt(flags.length)]);
        assertEquals("dict+bitpack(3)", chunk.description());
        assertEquals(ROWS * 3 / 8, chunk.bytes().length, 128);
    }

    @Test
    void lowCardinalityDoublesTakeADictionary() {
        Random random = new Random(6);
        double[] prices = random.doubles(100, 1, 1000).map(p -> Math.round(p * 100) / 100.0).toArray();
        EncodedChunk chunk = encode(DataType.DOUBLE, i -> prices[random.nextInt(prices.length)]);
        assertEquals("dict+bitpack(7)", chunk.description());
        assertEquals(ROWS * 7 / 8, chunk.bytes().length, 2048);
    }

    @Test
    void sortedDatesWithManyRowsPerDayTakeRunLengthThenDelta() {
        EncodedChunk chunk = encode(DataType.DATE, i -> 8000 + i / 400);
        assertEquals("rle+delta+bitpack(0)", chunk.description());
        assertTrue(chunk.bytes().length < 4096, chunk.bytes().length + " bytes");
    }

    @Test
    void clusteredBooleansTakeRunLength() {
        EncodedChunk chunk = encode(DataType.BOOLEAN, i -> (i / 5000) % 2 == 0);
        assertEquals("rle+bitpack(1)", chunk.description());
        assertTrue(chunk.bytes().length < 1024, chunk.bytes().length + " bytes");
    }

    @Test
    void noNullsAddNothingAndAllNullsAreAFlag() {
        Random random = new Random(10);
        assertEquals("bitpack(4)", encode(DataType.INTEGER, i -> random.nextInt(16)).description());
        EncodedChunk allNull = encode(DataType.BIGINT, i -> null);
        assertEquals("all-null", allNull.description());
        assertEquals(7, allNull.bytes().length);
    }

    @Test
    void scatteredNullsTakeTheBitmapAndClusteredNullsTheirRuns() {
        Random random = new Random(7);
        EncodedChunk scattered = encode(DataType.INTEGER, i -> random.nextBoolean() ? null : random.nextInt(16));
        assertTrue(scattered.description().endsWith(" nulls:bitmap"), scattered.description());
        EncodedChunk clustered = encode(DataType.INTEGER, i -> i / 10_000 % 2 == 0 ? null : random.nextInt(16));
        assertEquals("bitpack(4) nulls:runs", clustered.description());
        assertTrue(clustered.bytes().length < ROWS / 2 + 1024, "runs instead of a 128 KB bitmap");
    }

    @Test
    void nullSlotsRepeatTheirNeighbourSoTheyDoNotBreakDeltas() {
        Random random = new Random(8);
        EncodedChunk chunk = encode(DataType.BIGINT, i -> random.nextInt(4) == 0 ? null : (Object) (long) i);
        // Gaps stay small (a zero filler would make them as wide as the keys, 20 bits).
        assertEquals("delta+bitpack(4) nulls:bitmap", chunk.description());
    }

    /** Windows at the sampled positions hold zeros, everything else is random: the estimate is badly wrong. */
    @Test
    void fallsBackToPlainWhenTheSampleMisleads() {
        Random random = new Random(9);
        boolean[] sampled = new boolean[ROWS];
        for (int w = 0; w < CascadeSelector.WINDOWS; w++) {
            int start = (int) ((long) w * (ROWS - CascadeSelector.WINDOW_SIZE) / (CascadeSelector.WINDOWS - 1));
            java.util.Arrays.fill(sampled, start, start + CascadeSelector.WINDOW_SIZE, true);
        }
        EncodedChunk chunk = encode(DataType.BIGINT, i -> sampled[i] ? 0L : random.nextLong());
        assertEquals("plain", chunk.description());
        assertEquals(8L * ROWS + CHUNK_HEADER_BYTES, chunk.bytes().length);
    }

    @Test
    void numericChunksNeverExceedPlainBeyondTheirHeaders() {
        for (DataType type : TestColumns.TYPES) {
            if (type.kind().isString()) {
                continue;
            }
            for (TestColumns.Pattern pattern : TestColumns.Pattern.values()) {
                Object[] rows = pattern.rows(type.kind(), 5000, 5);
                try (Column column = TestColumns.column(type, rows, allocator)) {
                    EncodedChunk chunk = ChunkCodec.encode(column.vector(), type, null, rows.length);
                    long plain = PhysicalLayout.of(type.kind()).plainBytes(rows.length);
                    long validity = (rows.length + 7) / 8;
                    assertTrue(chunk.bytes().length <= CHUNK_HEADER_BYTES + validity + plain,
                            type + " " + pattern + ": " + chunk.bytes().length + " bytes as " + chunk.description());
                }
            }
        }
    }

    /** Encodes {@link #ROWS} rows given by {@code row} and checks they decode back. */
    private EncodedChunk encode(DataType type, IntFunction<Object> row) {
        Object[] rows = new Object[ROWS];
        for (int i = 0; i < ROWS; i++) {
            rows[i] = row.apply(i);
        }
        try (Column column = TestColumns.column(type, rows, allocator)) {
            EncodedChunk chunk = ChunkCodec.encode(column.vector(), type, column.dictionary(), ROWS);
            try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(chunk.bytes()), type, allocator)) {
                assertArrayEquals(TestColumns.comparable(rows), TestColumns.rows(decoded.vector(), type, decoded.dictionary()));
            }
            return chunk;
        }
    }
}
