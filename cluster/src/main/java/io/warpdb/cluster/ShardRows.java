package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The rows of a stream that belong on one shard, batch by batch: what a load stages on that shard.
 * Each shard's stream reads the load's rows on its own, so the shards are staged side by side and
 * no more than a batch per shard is decoded at a time, whatever the size of the load.
 */
final class ShardRows implements BatchStream {
    private final BatchStream all;
    private final ShardPartitioner partitioner;
    private final int shard;
    private final BufferAllocator allocator;

    /** {@code partitioner}: null for a replicated table, whose every row goes to every shard. */
    ShardRows(BatchStream all, ShardPartitioner partitioner, int shard, BufferAllocator allocator) {
        this.all = all;
        this.partitioner = partitioner;
        this.shard = shard;
        this.allocator = allocator;
    }

    @Override
    public Schema schema() {
        return all.schema();
    }

    @Override
    public Batch next() {
        for (Batch next = all.next(); next != null; next = all.next()) {
            if (partitioner == null) {
                return next;
            }
            try (Batch batch = next) {
                List<Integer> rows = new ArrayList<>();
                for (int r = 0; r < batch.rowCount(); r++) {
                    if (partitioner.shardOf(batch, r) == shard) {
                        rows.add(r);
                    }
                }
                if (!rows.isEmpty()) {
                    return ShardPartitioner.select(batch, rows, allocator);
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        all.close();
    }
}
