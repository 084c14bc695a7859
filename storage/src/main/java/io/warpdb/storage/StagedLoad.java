package io.warpdb.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Segments written for a named load of one table and not yet part of it: the first half of a load
 * that a cluster commits on every shard at once (see {@link Table#stage}). Kept in the manifest,
 * so that they outlive a crash of the process until the load is published or discarded.
 *
 * @param tableId  the table they are for; dropping it discards them
 * @param segments in row order, without deletes
 */
record StagedLoad(long tableId, List<SegmentRef> segments) {
    StagedLoad {
        segments = List.copyOf(segments);
    }

    long rows() {
        return segments.stream().mapToLong(SegmentRef::liveRows).sum();
    }

    /** This load with {@code more} segments after its own. */
    StagedLoad plus(List<SegmentRef> more) {
        List<SegmentRef> all = new ArrayList<>(segments);
        all.addAll(more);
        return new StagedLoad(tableId, all);
    }
}
