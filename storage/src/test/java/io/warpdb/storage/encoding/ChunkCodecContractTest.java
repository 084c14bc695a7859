package io.warpdb.storage.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.TestColumns.Column;
import io.warpdb.storage.encoding.TestColumns.Pattern;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ChunkCodec's promises beyond the round trip: inputs it accepts and refuses, buffers it reads. */
class ChunkCodecContractTest {
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
    void decodesFromAnywhereInHeapOrDirectBuffers() {
        Object[] rows = Pattern.MIXED_NULL.rows(DataType.VARCHAR.kind(), 1000, 3);
        byte[] bytes = encode(DataType.VARCHAR, rows).bytes();
        for (ByteBuffer buffer : List.of(ByteBuffer.allocate(bytes.length + 20), ByteBuffer.allocateDirect(bytes.length + 20))) {
            buffer.position(13);
            buffer.put(bytes);
            buffer.position(13);
            try (DecodedColumn decoded = ChunkCodec.decode(buffer, DataType.VARCHAR, "name", allocator)) {
                assertArrayEquals(rows, TestColumns.rows(decoded.vector(), DataType.VARCHAR, decoded.dictionary()));
                assertEquals("name", decoded.vector().getName());
            }
            assertEquals(13, buffer.position(), "decode leaves the caller's position alone");
        }
    }

    @Test
    void encodesOnlyTheFirstRowCountRows() {
        Object[] rows = Pattern.RANDOM.rows(DataType.BIGINT.kind(), 100, 4);
        try (Column column = TestColumns.column(DataType.BIGINT, rows, allocator)) {
            EncodedChunk chunk = ChunkCodec.encode(column.vector(), DataType.BIGINT, null, 65);
            try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(chunk.bytes()), DataType.BIGINT, allocator)) {
                assertArrayEquals(Arrays.copyOf(rows, 65), TestColumns.rows(decoded.vector(), DataType.BIGINT, null));
            }
        }
    }

    @Test
    void allNullStringsDecodeWithAnEmptyDictionary() {
        EncodedChunk chunk = encode(DataType.VARCHAR, new Object[3]);
        try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(chunk.bytes()), DataType.VARCHAR, allocator)) {
            assertEquals(0, decoded.dictionary().size());
            assertEquals(3, decoded.vector().getNullCount());
        }
    }

    @Test
    void stringDictionaryKeepsOnlyTheUsedEntriesOnceInTheirOrder() {
        StringDictionary shared = StringDictionary.ofValues(new String[] {"zero", "one", "two", "one", "three"});
        int[] codes = {4, 1, 3, 3, 1, 4};
        try (IntVector vector = new IntVector("c", allocator)) {
            vector.allocateNew(codes.length);
            for (int i = 0; i < codes.length; i++) {
                vector.set(i, codes[i]);
            }
            vector.setValueCount(codes.length);
            EncodedChunk chunk = ChunkCodec.encode(vector, DataType.VARCHAR, shared, codes.length);
            try (DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(chunk.bytes()), DataType.VARCHAR, allocator)) {
                assertEquals(2, decoded.dictionary().size());
                assertEquals("one", decoded.dictionary().get(0));
                assertEquals("three", decoded.dictionary().get(1));
                assertTrue(decoded.dictionary().isUnique());
                assertArrayEquals(new Object[] {"three", "one", "one", "one", "one", "three"},
                        TestColumns.rows(decoded.vector(), DataType.VARCHAR, decoded.dictionary()));
            }
        }
    }

    @Test
    void refusesBadInput() {
        try (Column column = TestColumns.column(DataType.INTEGER, new Object[] {1, 2, null}, allocator)) {
            assertThrows(IllegalArgumentException.class, () -> ChunkCodec.encode(column.vector(), DataType.BIGINT, null, 3));
            assertThrows(IllegalArgumentException.class, () -> ChunkCodec.encode(column.vector(), DataType.INTEGER, null, 4));
            assertThrows(IllegalArgumentException.class, () -> ChunkCodec.encode(column.vector(), DataType.VARCHAR, null, 3));
            assertThrows(IllegalArgumentException.class,
                    () -> ChunkCodec.encode(column.vector(), DataType.VARCHAR, StringDictionary.ofDistinct(List.of("a", "b")), 3),
                    "code 2 is outside a dictionary of 2");
        }
        byte[] bytes = encode(DataType.INTEGER, new Object[] {1, 2, null}).bytes();
        assertThrows(IllegalArgumentException.class, () -> ChunkCodec.decode(ByteBuffer.wrap(bytes), DataType.BIGINT, allocator),
                "INT64 is not INT32");
        ChunkCodec.decode(ByteBuffer.wrap(bytes), DataType.DATE, allocator).close();
        byte[] otherVersion = bytes.clone();
        otherVersion[0] = 99;
        assertThrows(IllegalArgumentException.class, () -> ChunkCodec.decode(ByteBuffer.wrap(otherVersion), DataType.INTEGER, allocator));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);
        assertThrows(RuntimeException.class, () -> ChunkCodec.decode(ByteBuffer.wrap(truncated), DataType.INTEGER, allocator));
    }

    private EncodedChunk encode(DataType type, Object[] rows) {
        try (Column column = TestColumns.column(type, rows, allocator)) {
            return ChunkCodec.encode(column.vector(), type, column.dictionary(), rows.length);
        }
    }
}
