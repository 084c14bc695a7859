package io.warpdb.storage.encoding.bench;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Decode throughput of one column chunk of {@value #ROWS} rows per encoding. Each dataset is
 * shaped so that the selector picks the encoding it is named after (checked in setup). The score
 * is in values per second (one operation = one value); {@link RunDecodeBenchmark} adds MB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecodeBenchmark {
    static final int ROWS = 1 << 20;

    /** A column shape, the type it is stored as, and the description the selector must give it. */
    public enum Dataset {
        PLAIN(DataType.BIGINT, "plain", random -> i -> random.nextLong()),
        BITPACK(DataType.INTEGER, "bitpack(12)", random -> i -> random.nextInt(4096)),
        DELTA(DataType.BIGINT, "delta+bitpack(3)", random -> {
            long[] key = {1_000_000};
            return i -> key[0] += 1 + random.nextInt(8);
        }),
        RLE(DataType.INTEGER, "rle+bitpack(10)", random -> {
            int[] runValues = random.ints(ROWS / 1000 + 1, 0, 1000).toArray();
            return i -> runValues[i / 1000];
        }),
        /** Like TPC-H's l_orderkey: 8 of every 32 keys, each on 1..7 rows. */
        RLE_DELTA_RLE(DataType.BIGINT, "rle+delta+rle+bitpack(5)", random -> {
            long[] state = {1, 0};
            return i -> {
                if (state[1]-- == 0) {
                    state[0] = state[0] % 32 == 8 ? state[0] + 25 : state[0] + 1;
                    state[1] = random.nextInt(7);
                }
                return state[0];
            };
        }),
        DICTIONARY_DOUBLE(DataType.DOUBLE, "dict+bitpack(7)", random -> {
            double[] prices = random.doubles(100, 1, 1000).map(p -> Math.round(p * 100) / 100.0).toArray();
            return i -> prices[random.nextInt(prices.length)];
        }),
        /** Like a nation name: 25 strings; the codes are what decoding writes. */
        DICTIONARY_STRING(DataType.varchar(25), "dict+bitpack(5)", random -> i -> random.nextInt(25)),
        BITPACK_WITH_NULLS(DataType.INTEGER, "bitpack(12) nulls:bitmap", random -> i -> random.nextInt(10) == 0 ? null : random.nextInt(4096));

        final DataType type;
        final String expectedDescription;
        final java.util.function.Function<Random, IntFunction<Object>> rows;

        Dataset(DataType type, String expectedDescription, java.util.function.Function<Random, IntFunction<Object>> rows) {
            this.type = type;
            this.expectedDescription = expectedDescription;
            this.rows = rows;
        }

        /** Bytes one decoded value occupies in its Arrow data buffer. */
        int decodedBytesPerValue() {
            return type.arrowType().equals(DataType.INTEGER.arrowType()) ? Integer.BYTES : Long.BYTES;
        }
    }

    @Param
    public Dataset dataset;

    private BufferAllocator allocator;
    private byte[] encoded;

    @Setup
    public void encode() {
        allocator = new RootAllocator();
        StringDictionary dictionary = dataset.type.kind().isString() ? nationNames() : null;
        IntFunction<Object> row = dataset.rows.apply(new Random(42));
        try (FieldVector vector = Vectors.allocate("c", dataset.type, ROWS, allocator)) {
            for (int i = 0; i < ROWS; i++) {
                Vectors.setNormalized(vector, dataset.type, i, row.apply(i));
            }
            vector.setValueCount(ROWS);
            EncodedChunk chunk = ChunkCodec.encode(vector, dataset.type, dictionary, ROWS);
            if (!chunk.description().equals(dataset.expectedDescription)) {
                throw new IllegalStateException(dataset + " encoded as " + chunk.description() + ", not " + dataset.expectedDescription);
            }
            encoded = chunk.bytes();
        }
    }

    @TearDown
    public void close() {
        allocator.close();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int decode() {
        try (DecodedColumn column = ChunkCodec.decode(ByteBuffer.wrap(encoded), dataset.type, allocator)) {
            return column.vector().getValueCount();
        }
    }

    private static StringDictionary nationNames() {
        StringDictionary.Builder names = new StringDictionary.Builder();
        for (int n = 0; n < 25; n++) {
            names.add("NATION-" + n);
        }
        return names.build();
    }
}
