package io.warpdb.exec.gpu.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.partition.RadixPartitioner.NullKeys;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.testing.GpuTestBase;
import io.warpdb.exec.gpu.testing.GpuTests;
import io.warpdb.exec.gpu.testing.ListSource;
import io.warpdb.exec.gpu.testing.RandomBatches;
import io.warpdb.exec.gpu.testing.RandomBatches.Options;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The radix-partitioning kernels (partition/radix_partition.cu) against Java references: the
 * row order of every pass is a stable counting sort by partition id, at the warp, block and
 * multi-block edges, in one and in two passes, with all hashes equal; and key hashes equal for
 * equal SQL values whatever the column type or dictionary.
 */
class RadixPartitionerTest extends GpuTestBase {
    private static final List<Integer> SIZES = List.of(0, 1, 31, 32, 33, 255, 256, 257, 2049, 100_003);

    @Test
    void ordersAreStableCountingSortsByPartition() {
        GpuTests.assumeGpu();
        int[][] bitsAndShifts = {{1, 0}, {8, 0}, {5, 27}, {12, 3}, {16, 16}};
        for (int rows : SIZES) {
            Random random = new Random(rows);
            int[] hashes = new int[rows];
            for (int i = 0; i < rows; i++) {
                hashes[i] = random.nextInt();
            }
            for (int[] bs : bitsAndShifts) {
                check(hashes, bs[1], bs[0], "rows " + rows + ", bits " + bs[0] + " from " + bs[1]);
            }
        }
    }

    @Test
    void allHashesEqualKeepTheRowOrderInOnePartition() {
        GpuTests.assumeGpu();
        for (int rows : SIZES) {
            int[] hashes = new int[rows];
            Arrays.fill(hashes, 0xCAFEBABE);
            check(hashes, 0, 8, "rows " + rows + ", all equal");
            check(hashes, 4, 12, "rows " + rows + ", all equal, two passes");
        }
    }

    @Test
    void fewDistinctHashesSkewedOverManyBlocks() {
        GpuTests.assumeGpu();
        Random random = new Random(11);
        int[] hashes = new int[300_007];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = random.nextInt(10) < 7 ? 42 : random.nextInt(5);
        }
        check(hashes, 0, 9, "skewed");
    }

    private void check(int[] hashes, int shift, int bits, String context) {
        int rows = hashes.length;
        try (DeviceWork work = new DeviceWork(CudaDevice.get());
                DeviceBuffer device = work.upload(hashes.length == 0 ? new int[1] : hashes, "test hashes");
                RadixPartitioner.PartitionOrder order = RadixPartitioner.order(device, rows, shift, bits, work)) {
            int[] actual = rows == 0 ? new int[0] : work.downloadInts(order.order(), rows);
            int partitions = 1 << bits;
            int[] sizes = new int[partitions];
            for (int h : hashes) {
                sizes[partition(h, shift, bits)]++;
            }
            assertArrayEquals(sizes, order.sizes(), context + ": partition sizes");
            int[] next = new int[partitions];
            for (int p = 1; p < partitions; p++) {
                next[p] = next[p - 1] + sizes[p - 1];
            }
            int[] expected = new int[rows];
            for (int row = 0; row < rows; row++) {
                expected[next[partition(hashes[row], shift, bits)]++] = row;
            }
            assertArrayEquals(expected, actual, context + ": row order");
        }
    }

    private static int partition(int hash, int shift, int bits) {
        return (hash >>> shift) & ((1 << bits) - 1);
    }

    @Test
    void keyHashesAreEqualForEqualValuesOfAnyTypeAndDictionary() {
        GpuTests.assumeGpu();
        Schema schema = Schema.of(new Field("b", DataType.BIGINT), new Field("i", DataType.INTEGER), new Field("s", DataType.VARCHAR));
        Options options = Options.plain().withDistinct(50).withNulls(0.1).withVaryingDictionaries();
        for (int rows : List.of(0, 1, 33, 2049, 100_003)) {
            try (ListSource source = randomSource(new RandomBatches(rows), schema, rows, options)) {
                List<Long[]> orderedKeys = new ArrayList<>();
                for (Batch b : source.batches()) {
                    for (int r = 0; r < b.rowCount(); r++) {
                        Object big = b.getObject(0, r);
                        Object small = b.getObject(1, r);
                        Object text = b.getObject(2, r);
                        orderedKeys.add(new Long[] {big == null ? null : (Long) big ^ Long.MIN_VALUE,
                                small == null ? null : (long) (Integer) small ^ Long.MIN_VALUE,
                                text == null ? null : Integer.toUnsignedLong(text.toString().hashCode())});
                    }
                }
                try (DeviceWork work = new DeviceWork(CudaDevice.get());
                        DeviceTable table = HostToDevice.upload(schema, source.batches(), work)) {
                    for (NullKeys nulls : NullKeys.values()) {
                        for (List<Integer> keys : List.of(List.of(0), List.of(1), List.of(2), List.of(0, 1), List.of(2, 1))) {
                            int[] expected = new int[rows];
                            for (int row = 0; row < rows; row++) {
                                expected[row] = reference(orderedKeys.get(row), keys, nulls, row);
                            }
                            try (DeviceBuffer hashes = RadixPartitioner.hashKeys(table, keys, nulls, work)) {
                                int[] actual = rows == 0 ? new int[0] : work.downloadInts(hashes, rows);
                                assertArrayEquals(expected, actual, "keys " + keys + ", " + nulls + ", rows " + rows);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * hash_keys in Java: the ordered keys of a row mixed into 32 bits; a NULL key mixed in as a
     * constant (GROUPED) or the row's index hashed instead of its keys (SPREAD).
     */
    private static int reference(Long[] orderedKeys, List<Integer> keys, NullKeys nulls, int row) {
        long seed = 0x9E3779B97F4A7C15L;
        long h = seed;
        for (int k : keys) {
            Long key = orderedKeys[k];
            if (key == null && nulls == NullKeys.SPREAD) {
                h = fmix64(seed ^ row);
                return (int) (h ^ (h >>> 32));
            }
            long value = key == null ? 0xC2B2AE3D27D4EB4FL : key;
            h = fmix64(h ^ (value + seed + (h << 6) + (h >>> 2)));
        }
        return (int) (h ^ (h >>> 32));
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
