package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.partition.HostTable;
import java.util.List;

/**
 * The groups of one chunk with their aggregates' states unfinished, in host memory: the key
 * columns (no columns without group keys), the number of groups and one state per aggregate.
 * Owns the keys.
 */
public record PartialAggregate(HostTable keys, int groups, List<Accumulation.State> states) implements AutoCloseable {
    @Override
    public void close() {
        keys.close();
    }
}
