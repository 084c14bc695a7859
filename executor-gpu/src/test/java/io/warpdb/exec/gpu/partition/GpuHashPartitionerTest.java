package io.warpdb.exec.gpu.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.DeviceToHost;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import io.warpdb.exec.gpu.testing.ResultAssert;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

/**
 * The GPU hash partitioner (partition/hash_partition.cu) against its CPU twin, core's
 * {@link CpuHashPartitioner}: every row in the same part, the rows of each part in input order,
 * for every key type, several keys, NULL keys, duplicates and skew, at the warp, tile and block
 * edges and over many blocks, into 1 to 1024 parts (1024 parts of a 16-byte column take more than
 * 48 KiB of shared memory).
 */
class GpuHashPartitionerTest extends GpuTestBase {
    private static final List<Integer> PARTS = List.of(1, 2, 3, 64, 1024);
    private static final int MANY_BLOCKS = 300_007;
    /** A grid of few blocks, each of many tiles (a partial one last). */
    private static final long FEW_BLOCKS = 3;

    @Test
    void everyKeyTypePartitionsAsOnTheCpu() {
        GpuTests.assumeGpu();
        List<DataType> keyTypes = new ArrayList<>(RandomBatches.allTypes());
        keyTypes.add(DataType.TIMESTAMP);
        Options options = Options.plain().withNulls(0.1).withExtremes().withVaryingDictionaries();
        for (DataType keyType : keyTypes) {
            Schema schema = Schema.of(new Field("k", keyType), new Field("b", DataType.BIGINT), new Field("s", DataType.VARCHAR),
                    new Field("i", DataType.INTEGER), new Field("t", DataType.BOOLEAN), new Field("d", DataType.DOUBLE));
            for (int rows : RandomBatches.SIZES) {
                RandomBatches random = new RandomBatches(rows * 31L + keyType.kind().ordinal());
                List<Batch> batches = random.generate(schema, rows, options, allocator);
                try {
                    for (int parts : PARTS) {
                        check(schema, batches, List.of(0), parts, keyType + ", " + rows + " rows, seed " + random.seed());
                    }
                } finally {
                    batches.forEach(Batch::close);
                }
            }
        }
    }

    /**
     * A chunk of a table (rows [from, from + count), read where they are) partitions as the CPU
     * partitions those rows: the first row, rows across the warp and tile edges, the last half,
     * the last row; one hashed key and several (a part per row first).
     */
    @Test
    void aRangeOfRowsPartitionsAsTheCpuPartitionsThoseRows() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("s", DataType.VARCHAR), new Field("i", DataType.INTEGER),
                new Field("t", DataType.BOOLEAN));
        RandomBatches random = new RandomBatches(77);
        List<Batch> batches = random.generate(schema, 100_003, Options.plain().withNulls(0.1).withDistinct(5_000), allocator);
        try {
            int[][] ranges = {{0, 1}, {1, 32}, {31, 2_049}, {50_000, 50_003}, {100_002, 1}};
            for (List<Integer> keys : List.of(List.of(0), List.of(2, 1))) {
                for (int[] range : ranges) {
                    for (int parts : List.of(2, 64)) {
                        check(schema, batches, keys, parts, range[0], range[1], "keys " + keys + ", rows [" + range[0] + ", "
                                + (range[0] + range[1]) + ")");
                    }
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    @Test
    void severalKeysCombineAsOnTheCpu() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("a", DataType.BIGINT), new Field("s", DataType.VARCHAR), new Field("i", DataType.INTEGER),
                new Field("x", DataType.DOUBLE), new Field("d", DataType.DATE), new Field("m", DataType.decimal(18, 4)),
                new Field("t", DataType.BOOLEAN));
        List<List<Integer>> keySets = List.of(List.of(0, 1), List.of(2, 3, 4), List.of(5, 6), List.of(1, 0, 2, 3, 4, 5, 6));
        for (int rows : List.of(1, 33, 2049, 100_003)) {
            RandomBatches random = new RandomBatches(rows);
            List<Batch> batches = random.generate(schema, rows, Options.plain().withDistinct(40).withNulls(0.05).withVaryingDictionaries(),
                    allocator);
            try {
                for (List<Integer> keys : keySets) {
                    for (int parts : PARTS) {
                        check(schema, batches, keys, parts, "keys " + keys + ", " + rows + " rows, seed " + random.seed());
                    }
                }
            } finally {
                batches.forEach(Batch::close);
            }
        }
    }

    @Test
    void duplicatesAndSkewOverManyBlocks() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("v", DataType.BIGINT));
        Random random = new Random(7);
        long[][] keyings = new long[3][MANY_BLOCKS];
        for (int r = 0; r < MANY_BLOCKS; r++) {
            keyings[0][r] = random.nextInt(10) < 9 ? 42 : random.nextLong(); // one hot key
            keyings[1][r] = 7; // one key
            keyings[2][r] = random.nextInt(100); // few keys, many duplicates
        }
        for (long[] keys : keyings) {
            try (Batch batch = longs(schema, keys)) {
                for (int parts : List.of(2, 3, 1024)) {
                    check(schema, List.of(batch), List.of(0), parts, "skewed keys, " + parts + " parts");
                }
            }
        }
    }

    @Test
    void manyBlocksOfIntegerKeysWithNulls() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("k", DataType.INTEGER), new Field("v", DataType.VARCHAR), new Field("w", DataType.BIGINT));
        RandomBatches random = new RandomBatches(5);
        List<Batch> batches = random.generate(schema, MANY_BLOCKS, Options.plain().withNulls(0.2), allocator);
        try {
            for (int parts : List.of(3, 1024)) {
                check(schema, batches, List.of(0), parts, "integer keys, " + parts + " parts");
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    @Test
    void wideDecimalKeysAndPayloads() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("w", DataType.decimal(38, 2)), new Field("v", DataType.decimal(30, 0)),
                new Field("b", DataType.BIGINT));
        for (int rows : List.of(1, 31, 32, 33, 2049, 100_003)) {
            try (Batch batch = wideDecimals(schema, rows, new Random(rows))) {
                for (int parts : PARTS) {
                    check(schema, List.of(batch), List.of(0), parts, "wide decimal keys, " + rows + " rows");
                    check(schema, List.of(batch), List.of(2, 0), parts, "bigint and wide decimal keys, " + rows + " rows");
                }
            }
        }
    }

    /** The service the cluster uses: batches split as the CPU splits them, into parts of their own, sharing the input's dictionaries. */
    @Test
    void batchSplitsAreTheCpusSplits() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("s", DataType.VARCHAR), new Field("x", DataType.DOUBLE));
        HashPartitioner gpu = new GpuBatchPartitioner();
        RandomBatches random = new RandomBatches(3);
        List<Batch> batches = random.generate(schema, 50_000, Options.plain().withNulls(0.1).withExtremes(), allocator);
        try {
            for (Batch batch : batches) {
                for (int parts : List.of(1, 2, 3, 64, 1024, GpuHashPartitioner.MAX_PARTS + 1)) {
                    List<Batch> expected = HashPartitioner.cpu().split(batch, List.of(0, 1), parts, allocator);
                    List<Batch> actual = gpu.split(batch, List.of(0, 1), parts, allocator);
                    try {
                        assertEquals(parts, actual.size());
                        for (int p = 0; p < parts; p++) {
                            ResultAssert.assertSameOrderedRows(ResultAssert.rows(List.of(expected.get(p))),
                                    ResultAssert.rows(List.of(actual.get(p))), parts + " parts, part " + p);
                            assertSame(batch.dictionary(1), actual.get(p).dictionary(1));
                        }
                    } finally {
                        expected.forEach(Batch::close);
                        actual.forEach(Batch::close);
                    }
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    /**
     * Batches coalesced into one chunk: per part the rows the CPU gives that part batch by batch, in
     * order, in pieces of at most {@link DeviceToHost#BATCH_ROWS} rows (strings renumbered into one dictionary).
     */
    @Test
    void chunkSplitsAreTheCpusSplitsOfEachBatch() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("s", DataType.VARCHAR), new Field("x", DataType.DOUBLE));
        HashPartitioner gpu = new GpuBatchPartitioner();
        RandomBatches random = new RandomBatches(5);
        List<Batch> batches = new ArrayList<>(random.generate(schema, 40_000, Options.plain().withNulls(0.1).withExtremes(), allocator));
        batches.addAll(random.generate(schema, 1, Options.plain(), allocator));
        batches.addAll(random.generate(schema, 33, Options.plain().withNulls(0.5), allocator));
        try {
            for (int parts : List.of(1, 2, 3, 64, GpuHashPartitioner.MAX_PARTS + 1)) {
                List<List<Batch>> expected = HashPartitioner.cpu().splitChunk(batches, List.of(0, 1), parts, allocator);
                List<List<Batch>> actual = gpu.splitChunk(batches, List.of(0, 1), parts, allocator);
                try {
                    assertEquals(parts, actual.size());
                    for (int p = 0; p < parts; p++) {
                        ResultAssert.assertSameOrderedRows(ResultAssert.rows(expected.get(p)), ResultAssert.rows(actual.get(p)),
                                parts + " parts, part " + p);
                        for (Batch piece : actual.get(p)) {
                            assertTrue(piece.rowCount() > 0 && piece.rowCount() <= DeviceToHost.BATCH_ROWS, "piece of " + piece.rowCount());
                        }
                    }
                } finally {
                    expected.forEach(part -> part.forEach(Batch::close));
                    actual.forEach(part -> part.forEach(Batch::close));
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
    }

    /** Runs without a device too: the service file names a class that loads, and is chosen only where a device is. */
    @Test
    void theClusterFindsThePartitionerWhereADeviceIs() {
        HashPartitioner chosen = HashPartitioner.choose(true);
        if (GpuTests.gpuAvailable()) {
            assertInstanceOf(GpuBatchPartitioner.class, chosen);
            assertEquals(CudaDevice.get().label(), chosen.name());
        } else {
            System.out.println("GPU partitioner not chosen: " + CudaDevice.availability().reason());
            assertSame(HashPartitioner.cpu(), chosen);
        }
        assertSame(HashPartitioner.cpu(), HashPartitioner.choose(false));
    }

    /**
     * Partitions the rows of {@code batches} on the GPU, on a grid as large as the device holds and
     * on one of {@link #FEW_BLOCKS}, and checks each part's rows, in order, against the CPU's parts.
     */
    private void check(Schema schema, List<Batch> batches, List<Integer> keys, int parts, String context) {
        check(schema, batches, keys, parts, 0, batches.stream().mapToInt(Batch::rowCount).sum(), context);
    }

    /** As {@link #check(Schema, List, List, int, String)} for rows [{@code from}, {@code from + count}) of the batches alone. */
    private void check(Schema schema, List<Batch> batches, List<Integer> keys, int parts, int from, int count, String context) {
        List<List<List<Object>>> expected = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            expected.add(new ArrayList<>());
        }
        int row = 0;
        for (Batch batch : batches) {
            List<List<Object>> values = ResultAssert.rows(List.of(batch));
            int[] partOf = CpuHashPartitioner.partsOf(batch, keys, parts);
            for (int r = 0; r < batch.rowCount(); r++, row++) {
                if (row >= from && row < from + count) {
                    expected.get(partOf[r]).add(values.get(r));
                }
            }
        }
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceTable input = HostToDevice.upload(schema, batches, work)) {
            for (long maxBlocks : new long[] {Long.MAX_VALUE, FEW_BLOCKS}) {
                String where = context + ", " + parts + " parts, at most " + maxBlocks + " blocks";
                try (GpuHashPartitioner.Parts grouped = GpuHashPartitioner.partition(input, from, count, keys, parts, maxBlocks, work);
                        Batch all = DeviceToHost.download(grouped.rows(), 0, count, allocator, work)) {
                    List<List<Object>> actual = ResultAssert.rows(List.of(all));
                    int[] starts = grouped.starts();
                    assertEquals(parts + 1, starts.length, where);
                    assertEquals(0, starts[0], where);
                    assertEquals(count, starts[parts], where + ": rows in all parts");
                    for (int p = 0; p < parts; p++) {
                        ResultAssert.assertSameOrderedRows(expected.get(p), actual.subList(starts[p], starts[p + 1]), where + ", part " + p);
                    }
                }
            }
        }
    }

    private Batch longs(Schema schema, long[] keys) {
        List<Object[]> rows = new ArrayList<>(keys.length);
        for (int r = 0; r < keys.length; r++) {
            rows.add(new Object[] {keys[r], (long) r});
        }
        return batch(schema, rows);
    }

    /** Random 128-bit unscaled values of either sign (some NULL, some repeated) and a row number. */
    private Batch wideDecimals(Schema schema, int rows, Random random) {
        List<Object[]> values = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            BigInteger w = random.nextInt(10) == 0 ? null : random.nextInt(4) == 0 ? BigInteger.valueOf(random.nextInt(5))
                    : new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119));
            BigInteger v = new BigInteger(96, random).negate();
            values.add(new Object[] {w, v, (long) r});
        }
        return batch(schema, values);
    }

    private Batch batch(Schema schema, List<Object[]> rows) {
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (int c = 0; c < schema.size(); c++) {
                FieldVector v = Vectors.allocate(schema.field(c).name(), schema.type(c), rows.size(), allocator);
                vectors.add(v);
                for (int r = 0; r < rows.size(); r++) {
                    Vectors.setNormalized(v, schema.type(c), r, rows.get(r)[c]);
                }
                v.setValueCount(rows.size());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, Arrays.asList(new StringDictionary[schema.size()]), rows.size());
    }
}
