package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.PrefixSum;
import java.util.ArrayList;
import java.util.List;

/**
 * Radix partitioning of one chunk in device memory by the hash of its key columns
 * (partition/radix_partition.cu): the keys are hashed so that equal SQL values hash alike in
 * either join input (numbers by value, doubles with -0.0 folded, strings through a hash of their
 * value, not of their dictionary code; NULL keys as {@link NullKeys} says), then the rows are reordered by partition id, bits
 * [shift, shift + bits) of the hash, in stable passes of at most {@link PartitionPlan#DIGIT_BITS}
 * bits (histogram per block, exclusive scan, scatter).
 */
public final class RadixPartitioner {
    static final String MODULE = "partition/radix_partition";

    private RadixPartitioner() {
    }

    /** Where rows with a NULL key go; the values match the kernel's NULL_KEYS_ constants. */
    public enum NullKeys {
        /** All rows of one group share a partition, NULL keys included (GROUP BY: NULL is a group). */
        GROUPED,
        /** Rows with a NULL key are spread over the partitions (a join: NULL matches nothing, so any partition will do). */
        SPREAD
    }

    /** The rows of a chunk reordered by partition, and the rows of each partition; the table is owned. */
    public record Partitioned(DeviceTable rows, int[] sizes) implements AutoCloseable {
        @Override
        public void close() {
            rows.close();
        }
    }

    /** A row order sorted by partition id and the sizes of the partitions; the order is owned. */
    public record PartitionOrder(DeviceBuffer order, int[] sizes) implements AutoCloseable {
        @Override
        public void close() {
            if (order != null) {
                order.close();
            }
        }
    }

    /** The rows of {@code chunk} reordered by the partition of their {@code keys} columns. */
    public static Partitioned partition(DeviceTable chunk, List<Integer> keys, NullKeys nulls, int shift, int bits,
            DeviceWork work) {
        if (chunk.rows() == 0) {
            return new Partitioned(new DeviceTable(chunk.schema(), 0, chunk.columns().stream().map(DeviceColumn::share).toList()),
                    new int[1 << bits]);
        }
        try (DeviceBuffer hashes = hashKeys(chunk, keys, nulls, work);
                PartitionOrder order = order(hashes, chunk.rows(), shift, bits, work)) {
            DeviceTable reordered = ColumnGather.gather(chunk, order.order(), chunk.rows(), work);
            return new Partitioned(reordered, order.sizes());
        }
    }

    /** The 32-bit hash of each row's keys. */
    public static DeviceBuffer hashKeys(DeviceTable chunk, List<Integer> keys, NullKeys nulls, DeviceWork work) {
        int rows = chunk.rows();
        List<KeyColumn> columns = new ArrayList<>(keys.size());
        try {
            for (int k : keys) {
                DeviceColumn column = chunk.column(k);
                int[] keyOfCode = column.type().kind().isString() ? valueHashes(column.dictionary()) : null;
                columns.add(KeyColumn.forEquality(column, keyOfCode, work));
            }
            DeviceBuffer hashes = work.allocate(Math.max(1, (long) rows) * Integer.BYTES, "partition key hashes");
            try (DeviceBuffer keySources = work.upload(KeyColumn.descriptors(columns), "partition key descriptors")) {
                work.kernel(MODULE, "hash_keys").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                        keySources, keys.size(), rows, nulls.ordinal(), hashes);
                return hashes;
            } catch (RuntimeException e) {
                hashes.close();
                throw e;
            }
        } finally {
            // Freed once the queued kernels have run (the pool holds blocks back until then).
            columns.forEach(KeyColumn::close);
        }
    }

    /**
     * Per dictionary code, a hash of its string: equal strings in any two dictionaries get equal
     * keys, as the partitions of both join inputs must.
     */
    static int[] valueHashes(StringDictionary dictionary) {
        int[] hashes = new int[dictionary.size()];
        for (int code = 0; code < hashes.length; code++) {
            hashes[code] = dictionary.get(code).hashCode();
        }
        return hashes;
    }

    /**
     * Row ids of {@code rows} rows sorted stably by bits [shift, shift + bits) of their hash, and
     * the number of rows of each of the 2^bits partitions.
     */
    public static PartitionOrder order(DeviceBuffer hashes, int rows, int shift, int bits, DeviceWork work) {
        if (bits < 1 || shift < 0 || shift + bits > PartitionPlan.HASH_BITS) {
            throw new IllegalArgumentException("partition bits [" + shift + ", " + (shift + bits) + ") of a 32-bit hash");
        }
        int partitions = 1 << bits;
        if (rows == 0) {
            return new PartitionOrder(null, new int[partitions]);
        }
        int rowsPerBlock = rowsPerBlock(rows, work);
        int grid = (int) PartitionPlan.ceilDiv(rows, rowsPerBlock);
        DeviceBuffer order = null;
        try {
            for (int done = 0; done < bits; done += PartitionPlan.DIGIT_BITS) {
                int digitBits = Math.min(PartitionPlan.DIGIT_BITS, bits - done);
                DeviceBuffer next = pass(hashes, order, rows, shift + done, digitBits, rowsPerBlock, grid, work);
                if (order != null) {
                    order.close();
                }
                order = next;
            }
            int[] sizes = sizes(hashes, rows, shift, partitions, work);
            return new PartitionOrder(order, sizes);
        } catch (RuntimeException e) {
            if (order != null) {
                order.close();
            }
            throw e;
        }
    }

    /** One stable pass on the digit at {@code shift}: the rows of {@code order} (null: 0..rows) reordered by it. */
    private static DeviceBuffer pass(DeviceBuffer hashes, DeviceBuffer order, int rows, int shift, int digitBits,
            int rowsPerBlock, int grid, DeviceWork work) {
        int counters = (1 << digitBits) * grid;
        try (DeviceBuffer counts = work.allocate((long) counters * Integer.BYTES, "partition digit counts");
                DeviceBuffer offsets = work.allocate(((long) counters + 1) * Integer.BYTES, "partition digit offsets")) {
            work.kernel(MODULE, "digit_counts").launch(work.stream(), grid, GridSize.BLOCK, 0, hashes, order, rows, shift, digitBits,
                    rowsPerBlock, counts);
            PrefixSum.exclusive(counts, offsets, counters, work);
            DeviceBuffer out = work.allocate((long) rows * Integer.BYTES, "partitioned row order");
            try {
                work.kernel(MODULE, "digit_scatter").launch(work.stream(), grid, GridSize.BLOCK, 0, hashes, order, rows, shift,
                        digitBits, rowsPerBlock, offsets, out);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    private static int[] sizes(DeviceBuffer hashes, int rows, int shift, int partitions, DeviceWork work) {
        try (DeviceBuffer sizes = work.allocateZeroed((long) partitions * Integer.BYTES, "partition sizes")) {
            work.kernel(MODULE, "partition_sizes").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0, hashes,
                    rows, shift, partitions - 1, sizes);
            return work.downloadInts(sizes, partitions);
        }
    }

    /** Rows per block of a pass: whole BLOCKs, about four blocks per SM, so that the counters stay few. */
    private static int rowsPerBlock(int rows, DeviceWork work) {
        long blocks = (long) work.device().smCount() * 4;
        long perBlock = PartitionPlan.ceilDiv(rows, blocks);
        return (int) (PartitionPlan.ceilDiv(perBlock, GridSize.BLOCK) * GridSize.BLOCK);
    }
}
