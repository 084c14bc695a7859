package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A wide DECIMAL's chunk (its low and high words as two value streams) decodes to exactly the values encoded. */
class WideDecimalChunkTest {
    private static final DataType TYPE = DataType.decimal(38, 4);
    private static final BigInteger MAX = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
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

    /** Unscaled values (null = NULL) of several shapes. */
    private static List<BigInteger[]> shapes(int n) {
        Random random = new Random(n);
        BigInteger[] extremes = {MAX, MAX.negate(), BigInteger.ZERO, BigInteger.ONE.negate(), BigInteger.ONE.shiftLeft(64),
            BigInteger.ONE.shiftLeft(64).negate(), BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)};
        BigInteger[] small = new BigInteger[n];
        BigInteger[] wide = new BigInteger[n];
        BigInteger[] edges = new BigInteger[n];
        BigInteger[] nulls = new BigInteger[n];
        BigInteger[] sorted = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            small[i] = BigInteger.valueOf(random.nextInt(1000) - 500);
            wide[i] = new BigInteger(126, random).mod(MAX).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
            edges[i] = extremes[i % extremes.length];
            nulls[i] = random.nextInt(10) < 3 ? null : wide[i];
            sorted[i] = BigInteger.TEN.pow(30).add(BigInteger.valueOf(7L * i));
        }
        return List.of(small, wide, edges, nulls, sorted, new BigInteger[n]);
    }

    @Test
    void everyShapeAndEncodingRoundTrips() {
        for (int size : SIZES) {
            for (BigInteger[] rows : shapes(size)) {
                roundTrip(rows, null);
                for (ValueEncoding encoding : CascadeSelector.candidates(DataType.BIGINT)) {
                    roundTrip(rows, encoding);
                }
            }
        }
    }

    @Test
    void smallValuesCostAboutTheirNarrowSize() {
        BigInteger[] rows = new BigInteger[10_000];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = BigInteger.valueOf(i % 100);
        }
        try (FieldVector vector = vector(rows)) {
            EncodedChunk chunk = ChunkCodec.encode(vector, TYPE, null, rows.length);
            // The high words are all 0: one run; the low words bit-pack to 7 bits each.
            assertTrue(chunk.bytes().length < rows.length * 2, chunk.bytes().length + " bytes as " + chunk.description());
        }
    }

    @Test
    void aWideChunkIsNotDescribedAsOneStreamNorReadAsANarrowOne() {
        try (FieldVector vector = vector(new BigInteger[] {BigInteger.ONE})) {
            EncodedChunk chunk = ChunkCodec.encode(vector, TYPE, null, 1);
            assertThrows(IllegalArgumentException.class, () -> ChunkCodec.describe(ByteBuffer.wrap(chunk.bytes()), TYPE));
            assertThrows(IllegalArgumentException.class,
                    () -> ChunkCodec.decode(ByteBuffer.wrap(chunk.bytes()), DataType.decimal(18, 4), allocator).close());
        }
    }

    private FieldVector vector(BigInteger[] rows) {
        FieldVector vector = Vectors.allocate("c", TYPE, rows.length, allocator);
        for (int i = 0; i < rows.length; i++) {
            Vectors.setNormalized(vector, TYPE, i, rows[i]);
        }
        vector.setValueCount(rows.length);
        return vector;
    }

    private void roundTrip(BigInteger[] rows, ValueEncoding forced) {
        try (FieldVector vector = vector(rows)) {
            EncodedChunk encoded = ChunkCodec.encode(vector, TYPE, null, rows.length, forced);
            try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(encoded.bytes()), TYPE, allocator)) {
                String what = rows.length + " rows as " + encoded.description();
                assertEquals(TYPE.arrowType(), decoded.vector().getField().getType(), what);
                List<BigDecimal> actual = new ArrayList<>();
                for (int i = 0; i < rows.length; i++) {
                    actual.add((BigDecimal) Vectors.getObject(decoded.vector(), TYPE, null, i));
                }
                assertEquals(Arrays.stream(rows).map(v -> v == null ? null : new BigDecimal(v, TYPE.scale())).toList(), actual, what);
            }
        }
    }
}
