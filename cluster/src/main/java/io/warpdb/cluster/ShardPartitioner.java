package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.partition.HashPartitioner;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Hash partitioning by shard: splits a batch into one batch per shard by the murmur3 hash of one
 * or more key columns ({@link HashPartitioner}: a row with a NULL key goes to shard 0, rows keep
 * their order within each shard), on the CPU or, where a node's configuration asks for it and a
 * device is present, on the GPU (seed 000 section 3.1). One key column hashes as a table's
 * distribution column does, so that a repartitioned join's result lies as a table hashed on its
 * key would.
 */
public final class ShardPartitioner {
    private final List<Integer> keys;
    private final int shards;
    private final HashPartitioner partitioner;

    /** Partitions by column {@code column} on the CPU. */
    public ShardPartitioner(int column, int shards) {
        this(List.of(column), shards, HashPartitioner.cpu());
    }

    /** Partitions by the combined hash of the {@code keys} columns with {@code partitioner}. */
    public ShardPartitioner(List<Integer> keys, int shards, HashPartitioner partitioner) {
        this.keys = List.copyOf(keys);
        this.shards = shards;
        this.partitioner = partitioner;
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

    /** One batch per shard (empty ones included), allocated to {@code allocator}; the caller owns them. */
    public List<Batch> split(Batch batch, BufferAllocator allocator) {
        return partitioner.split(batch, keys, shards, allocator);
    }

    /** The input bytes to coalesce before {@link #splitChunk} ({@link HashPartitioner#chunkBytes}). */
    public long chunkBytes() {
        return partitioner.chunkBytes();
    }

    /** Per shard, the rows of all {@code batches} that go to it, as batches the caller owns; the inputs stay the caller's. */
    public List<List<Batch>> splitChunk(List<Batch> batches, BufferAllocator allocator) {
        return partitioner.splitChunk(batches, keys, shards, allocator);
    }
}
