package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * Hash partitioning on the CPU: splits a batch into one batch per shard by the murmur3 hash of
 * one or more key columns (a row with a NULL key goes to shard 0), keeping the rows' order within
 * each shard. One key column hashes as a table's distribution column does, so that a
 * repartitioned join's result lies as a table hashed on its key would. The GPU's shared-memory
 * scatter (seed 000 section 3.1) is to take this class's place for device batches.
 */
public final class ShardPartitioner {
    /** The seed of the hash that places rows on shards; another level (seed 000 section 5) must use another. */
    public static final int SHARD_SEED = 0;

    private final List<Integer> keys;
    private final int shards;

    public ShardPartitioner(int column, int shards) {
        this(List.of(column), shards);
    }

    /** Partitions by the combined hash of the {@code keys} columns. */
    public ShardPartitioner(List<Integer> keys, int shards) {
        this.keys = List.copyOf(keys);
        this.shards = shards;
    }

    /** The shard of a row of {@code batch}. */
    public int shardOf(Batch batch, int row) {
        int hash = 0;
        for (int i = 0; i < keys.size(); i++) {
            int column = keys.get(i);
            if (batch.vector(column).isNull(row)) {
                return 0;
            }
            int h = hash(batch, column, row);
            hash = i == 0 ? h : Murmur3.hashLong(((long) hash << 32) | (h & 0xffffffffL), SHARD_SEED);
        }
        return Math.floorMod(hash, shards);
    }

    /**
     * Whether values of {@code a} and {@code b} that compare equal hash alike here: the same
     * kind, any integer widths, strings of any length, decimals of one scale and width.
     */
    public static boolean hashesAlike(DataType a, DataType b) {
        if (a.kind() != b.kind()) {
            return (a.kind() == TypeKind.INTEGER || a.kind() == TypeKind.BIGINT) && (b.kind() == TypeKind.INTEGER || b.kind() == TypeKind.BIGINT);
        }
        return switch (a.kind()) {
            case DECIMAL -> a.scale() == b.scale() && a.isWideDecimal() == b.isWideDecimal();
            case CHAR -> a.precision() == b.precision();
            default -> true;
        };
    }

    /** The murmur3 hash of a non-NULL value. */
    private static int hash(Batch batch, int column, int row) {
        FieldVector v = batch.vector(column);
        DataType type = batch.schema().type(column);
        if (type.isWideDecimal()) {
            // decimal128: the low word, then the high word
            long low = v.getDataBuffer().getLong((long) row * 16);
            long high = v.getDataBuffer().getLong((long) row * 16 + 8);
            return Murmur3.hashLong(low ^ Murmur3.hashLong(high, SHARD_SEED), SHARD_SEED);
        }
        return switch (type.kind()) {
            case BOOLEAN -> Murmur3.hashLong(((BitVector) v).get(row), SHARD_SEED);
            case INTEGER -> Murmur3.hashLong(((IntVector) v).get(row), SHARD_SEED);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> Murmur3.hashLong(((BigIntVector) v).get(row), SHARD_SEED);
            case DATE -> Murmur3.hashLong(((DateDayVector) v).get(row), SHARD_SEED);
            case DOUBLE -> Murmur3.hashLong(Double.doubleToLongBits(((Float8Vector) v).get(row) + 0.0), SHARD_SEED);
            case VARCHAR, CHAR -> Murmur3.hashString(batch.dictionary(column).get(((IntVector) v).get(row)), SHARD_SEED);
        };
    }

    /** One batch per shard (empty ones included), allocated to {@code allocator}; the caller owns them. */
    public List<Batch> split(Batch batch, BufferAllocator allocator) {
        List<List<Integer>> rows = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            rows.add(new ArrayList<>());
        }
        for (int r = 0; r < batch.rowCount(); r++) {
            rows.get(shardOf(batch, r)).add(r);
        }
        List<Batch> parts = new ArrayList<>(shards);
        try {
            for (List<Integer> shardRows : rows) {
                parts.add(select(batch, shardRows, allocator));
            }
        } catch (RuntimeException e) {
            parts.forEach(Batch::close);
            throw e;
        }
        return parts;
    }

    /** The given rows of {@code batch} as a new batch sharing its dictionaries. */
    static Batch select(Batch batch, List<Integer> rows, BufferAllocator allocator) {
        Schema schema = batch.schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                FieldVector from = batch.vector(c);
                FieldVector to = Vectors.allocate(schema.field(c).name(), schema.type(c), rows.size(), allocator);
                vectors.add(to);
                for (int i = 0; i < rows.size(); i++) {
                    to.copyFromSafe(rows.get(i), i, from);
                }
                to.setValueCount(rows.size());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, batch.dictionaries(), rows.size());
    }
}
