package io.warpdb.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.partition.Murmur3;
import io.warpdb.core.types.DataType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU partitioner's column-at-a-time hashing ({@link CpuHashPartitioner#partsOf}) places every row as the murmur3 of its value does
 * (a NULL key on shard 0; one key as a distribution column, several combined), every type; a
 * split keeps every row once, in order.
 */
class ShardPartitionerTest {
    private static final int SHARDS = 3;
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        allocator.close();
    }

    @Test
    void eachKeyColumnPlacesRowsByTheHashOfItsValues() {
        try (Batch batch = EveryType.batch(200, allocator)) {
            for (int c = 0; c < batch.columnCount(); c++) {
                int[] expected = new int[batch.rowCount()];
                for (int r = 0; r < expected.length; r++) {
                    expected[r] = batch.vector(c).isNull(r) ? 0 : Math.floorMod(hash(batch, c, r), SHARDS);
                }
                assertArrayEquals(expected, CpuHashPartitioner.partsOf(batch, List.of(c), SHARDS), EveryType.SCHEMA.field(c).name());
            }
            int[] combined = CpuHashPartitioner.partsOf(batch, List.of(1, 9), SHARDS);
            for (int r = 0; r < combined.length; r++) {
                int expected = batch.vector(1).isNull(r) || batch.vector(9).isNull(r) ? 0 : Math.floorMod(Murmur3.hashLong(
                        ((long) hash(batch, 1, r) << 32) | (hash(batch, 9, r) & 0xffffffffL), HashPartitioner.SEED), SHARDS);
                assertEquals(expected, combined[r], "row " + r);
            }
        }
    }

    @Test
    void aSplitKeepsEveryRowOnceInOrder() {
        try (Batch batch = EveryType.batch(100, allocator)) {
            int[] shards = CpuHashPartitioner.partsOf(batch, List.of(2), SHARDS);
            List<Batch> parts = CpuHashPartitioner.split(batch, shards, SHARDS, allocator);
            try {
                for (int s = 0; s < SHARDS; s++) {
                    List<Integer> rows = new ArrayList<>();
                    for (int r = 0; r < shards.length; r++) {
                        if (shards[r] == s) {
                            rows.add(r);
                        }
                    }
                    assertEquals(rows.size(), parts.get(s).rowCount());
                    for (int i = 0; i < rows.size(); i++) {
                        for (int c = 0; c < batch.columnCount(); c++) {
                            assertEquals(batch.getObject(c, rows.get(i)), parts.get(s).getObject(c, i), "shard " + s + " row " + i);
                        }
                    }
                }
            } finally {
                parts.forEach(Batch::close);
            }
        }
    }

    /** A chunk of batches splits as its batches one by one: per shard their non-empty parts, in input order. */
    @Test
    void aChunkSplitsAsItsBatchesOneByOne() {
        ShardPartitioner partitioner = new ShardPartitioner(2, SHARDS);
        assertEquals(0, partitioner.chunkBytes());
        try (Batch first = EveryType.batch(100, allocator); Batch second = EveryType.batch(1, allocator)) {
            List<List<Batch>> chunk = partitioner.splitChunk(List.of(first, second), allocator);
            List<Batch> one = partitioner.split(first, allocator);
            List<Batch> two = partitioner.split(second, allocator);
            try {
                assertEquals(SHARDS, chunk.size());
                for (int s = 0; s < SHARDS; s++) {
                    List<Batch> expected = new ArrayList<>();
                    for (Batch b : List.of(one.get(s), two.get(s))) {
                        if (b.rowCount() > 0) {
                            expected.add(b);
                        }
                    }
                    assertEquals(expected.size(), chunk.get(s).size(), "shard " + s);
                    for (int i = 0; i < expected.size(); i++) {
                        for (int c = 0; c < first.columnCount(); c++) {
                            for (int r = 0; r < expected.get(i).rowCount(); r++) {
                                assertEquals(expected.get(i).getObject(c, r), chunk.get(s).get(i).getObject(c, r), "shard " + s);
                            }
                        }
                    }
                }
            } finally {
                chunk.forEach(part -> part.forEach(Batch::close));
                one.forEach(Batch::close);
                two.forEach(Batch::close);
            }
        }
    }

    /** The murmur3 hash of a non-NULL value, read a value at a time: the definition the partitioner's loops keep. */
    private static int hash(Batch batch, int column, int row) {
        FieldVector v = batch.vector(column);
        DataType type = batch.schema().type(column);
        int seed = HashPartitioner.SEED;
        if (type.isWideDecimal()) {
            long low = v.getDataBuffer().getLong((long) row * 16);
            long high = v.getDataBuffer().getLong((long) row * 16 + 8);
            return Murmur3.hashLong(low ^ Murmur3.hashLong(high, seed), seed);
        }
        return switch (type.kind()) {
            case BOOLEAN -> Murmur3.hashLong(((BitVector) v).get(row), seed);
            case INTEGER -> Murmur3.hashLong(((IntVector) v).get(row), seed);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> Murmur3.hashLong(((BigIntVector) v).get(row), seed);
            case DATE -> Murmur3.hashLong(((DateDayVector) v).get(row), seed);
            case DOUBLE -> Murmur3.hashLong(Double.doubleToLongBits(((Float8Vector) v).get(row) + 0.0), seed);
            case VARCHAR, CHAR -> Murmur3.hashString(batch.dictionary(column).get(((IntVector) v).get(row)), seed);
        };
    }
}
