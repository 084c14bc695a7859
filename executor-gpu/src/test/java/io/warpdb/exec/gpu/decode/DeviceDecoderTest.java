package io.warpdb.exec.gpu.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.TestColumns;
import io.warpdb.storage.encoding.TestColumns.Column;
import io.warpdb.storage.encoding.TestColumns.Pattern;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The device decoder against storage's Java decoder: for every type, data shape (storage's
 * adversarial patterns: all equal, sorted, reverse sorted, random, extremes, all NULL, mixed and
 * clustered NULLs, ...), size around word and tile boundaries, and every encoding and cascade the
 * selector can choose, the device column decoded on the GPU equals, byte for byte, the one
 * {@link HostToDevice} uploads from the chunks decoded on the host; also for columns of many chunks
 * of mixed shapes and encodings, and for full-size chunks of 2^20 rows.
 */
class DeviceDecoderTest extends GpuTestBase {
    /**
     * Empty, one value, around 64-bit words, around the kernels' 2048-row tiles (a scan's tile
     * sums carried over one tile boundary and two, the last tile partial or of one value).
     */
    private static final int[] SIZES = {0, 1, 63, 64, 65, 1000, 2047, 2048, 2049, 4097, 5000};
    private static final int FULL_CHUNK = 1 << 20;

    @BeforeEach
    void needsGpu() {
        GpuTests.assumeGpu();
    }

    static Stream<DataType> types() {
        return TestColumns.TYPES.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.warpdb.storage.encoding.TestColumns#typesAndPatterns")
    void everyEncodingOfEveryShapeAndSize(DataType type, Pattern pattern) {
        for (int size : SIZES) {
            Object[] rows = pattern.rows(type.kind(), size, size);
            check(type, List.of(encode(type, rows, null)));
            for (String encoding : ChunkCodec.candidateEncodings(type)) {
                check(type, List.of(encode(type, rows, encoding)));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void manyChunksOfMixedShapesAndEncodings(DataType type) {
        List<String> encodings = ChunkCodec.candidateEncodings(type);
        List<byte[]> chunks = new ArrayList<>();
        Pattern[] patterns = Pattern.values();
        for (int i = 0; i < 2 * patterns.length; i++) {
            Object[] rows = patterns[i % patterns.length].rows(type.kind(), 500 + 731 * i, i);
            chunks.add(encode(type, rows, i % 3 == 0 ? null : encodings.get(i % encodings.size())));
        }
        check(type, chunks);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void fullSizeChunks(DataType type) {
        List<byte[]> chunks = new ArrayList<>();
        // (a million distinct strings would mostly time the test's own string building)
        Pattern first = type.kind().isString() ? Pattern.LONG_RUNS : Pattern.SORTED;
        chunks.add(encode(type, first.rows(type.kind(), FULL_CHUNK, 1), null));
        chunks.add(encode(type, Pattern.MIXED_NULL.rows(type.kind(), FULL_CHUNK, 2), null));
        chunks.add(encode(type, Pattern.CLUSTERED_NULL.rows(type.kind(), FULL_CHUNK - 1, 3), null));
        check(type, chunks);
    }

    @Test
    void everyEncodingOfAFullSizeChunk() {
        Object[] rows = Pattern.LONG_RUNS.rows(DataType.BIGINT.kind(), FULL_CHUNK, 11);
        for (String encoding : ChunkCodec.candidateEncodings(DataType.BIGINT)) {
            check(DataType.BIGINT, List.of(encode(DataType.BIGINT, rows, encoding)));
        }
    }

    /** The rows encoded by storage, as {@code encoding} or, when null, as the selector chooses. */
    private byte[] encode(DataType type, Object[] rows, String encoding) {
        try (Column column = TestColumns.column(type, rows, allocator)) {
            return (encoding == null
                    ? ChunkCodec.encode(column.vector(), type, column.dictionary(), rows.length)
                    : ChunkCodec.encodeAs(column.vector(), type, column.dictionary(), rows.length, encoding)).bytes();
        }
    }

    /** Decodes the chunks on the host and uploads them, decodes them on the device, and compares the device columns. */
    private void check(DataType type, List<byte[]> chunks) {
        String what = type + ", chunks " + chunks.stream().map(c -> ChunkCodec.describe(ByteBuffer.wrap(c), type))
                .map(DeviceDecoderTest::shape).toList();
        List<Batch> batches = new ArrayList<>();
        Schema schema = Schema.of(new Field("c", type));
        try (DeviceWork work = new DeviceWork(CudaDevice.get())) {
            int rows = 0;
            for (byte[] chunk : chunks) {
                DecodedColumn decoded = ChunkCodec.decode(ByteBuffer.wrap(chunk), type, allocator);
                int count = decoded.vector().getValueCount();
                List<StringDictionary> dictionary = new ArrayList<>();
                dictionary.add(decoded.dictionary());
                batches.add(new Batch(schema, List.of(decoded.vector()), dictionary, count));
                rows += count;
            }
            List<EncodedColumnChunk> described = chunks.stream().map(c -> ChunkCodec.describe(ByteBuffer.wrap(c), type)).toList();
            try (DeviceColumn expected = HostToDevice.uploadColumn(type, batches, 0, rows, work);
                    DeviceColumn actual = DeviceDecoder.decode(type, described, work)) {
                assertEquals(expected.rows(), actual.rows(), what);
                if (type.kind().isString()) {
                    assertEquals(entries(expected.dictionary()), entries(actual.dictionary()), what + ": dictionary");
                }
                int valueBytes = rows * DeviceColumn.width(type);
                assertArrayEquals(work.downloadBytes(expected.values(), 0, valueBytes), work.downloadBytes(actual.values(), 0, valueBytes),
                        what + ": values");
                assertEquals(expected.validity() == null, actual.validity() == null, what + ": whether there are validity bytes");
                if (expected.validity() != null) {
                    assertArrayEquals(work.downloadBytes(expected.validity(), 0, rows), work.downloadBytes(actual.validity(), 0, rows),
                            what + ": validity");
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    /** A chunk's rows and how it is stored, for messages. */
    private static String shape(EncodedColumnChunk chunk) {
        return chunk.rowCount() + " rows " + chunk.validity().getClass().getSimpleName() + " "
                + (chunk.values() == null ? "-" : chunk.values().getClass().getSimpleName());
    }

    private static List<String> entries(StringDictionary dictionary) {
        List<String> entries = new ArrayList<>(dictionary.size());
        for (int code = 0; code < dictionary.size(); code++) {
            entries.add(dictionary.get(code));
        }
        return entries;
    }
}
