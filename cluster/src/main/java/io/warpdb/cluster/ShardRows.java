package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.partition.CpuHashPartitioner;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows of a stream that belong on one shard, batch by batch: what a load stages on that shard.
 * Each shard's stream reads the load's rows on its own, so the shards are staged side by side and
 * no more than a batch per shard is decoded at a time, whatever the size of the load.
 */
final class ShardRows implements BatchStream {
    private final BatchStream all;
    private final List<Integer> keys;
    private final int shard;
    private final int shards;
    private final BufferAllocator allocator;
    private long rowsReturned;

    /** The rows of {@code all} whose {@code keys} hash to {@code shard} of {@code shards}; no keys: every row (a replicated table). */
    ShardRows(BatchStream all, List<Integer> keys, int shard, int shards, BufferAllocator allocator) {
        this.all = all;
        this.keys = List.copyOf(keys);
        this.shard = shard;
        this.shards = shards;
        this.allocator = allocator;
    }

    @Override
    public Schema schema() {
        return all.schema();
    }

    @Override
    public Batch next() {
        for (Batch next = all.next(); next != null; next = all.next()) {
            if (keys.isEmpty()) {
                rowsReturned += next.rowCount();
                return next;
            }
            try (Batch batch = next) {
                int[] partOf = CpuHashPartitioner.partsOf(batch, keys, shards);
                int[] rows = new int[partOf.length];
                int count = 0;
                for (int r = 0; r < partOf.length; r++) {
                    if (partOf[r] == shard) {
                        rows[count++] = r;
                    }
                }
                if (count > 0) {
                    rowsReturned += count;
                    return CpuHashPartitioner.select(batch, rows, 0, count, allocator);
                }
            }
        }
        return null;
    }

    /** The rows the batches returned so far hold: all of this shard's once {@link #next} returned null. */
    long rowsReturned() {
        return rowsReturned;
    }

    @Override
    public void close() {
        all.close();
    }
}
