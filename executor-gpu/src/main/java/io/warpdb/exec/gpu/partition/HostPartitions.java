package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * An input cut into 2^bits partitions in host memory: per partition, its pieces from every chunk
 * (seed 002's sub-partitions, gathered when the partition is joined). Owns the pieces until a
 * partition is taken.
 */
public final class HostPartitions implements AutoCloseable {
    private final Schema schema;
    private final List<List<Batch>> pieces;

    HostPartitions(Schema schema, int partitions) {
        this.schema = schema;
        this.pieces = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            pieces.add(new ArrayList<>());
        }
    }

    void add(int partition, Batch piece) {
        pieces.get(partition).add(piece);
    }

    public int partitions() {
        return pieces.size();
    }

    public long rows(int partition) {
        return pieces.get(partition).stream().mapToLong(Batch::rowCount).sum();
    }

    /** Partition {@code p} as a table the caller owns from now on. */
    public HostTable take(int partition) {
        HostTable table = new HostTable(schema, pieces.get(partition));
        pieces.set(partition, new ArrayList<>());
        return table;
    }

    @Override
    public void close() {
        pieces.forEach(list -> list.forEach(Batch::close));
    }
}
