package io.warpdb.storage;

import io.warpdb.core.types.Schema;
import java.util.List;

/**
 * A table in one version of the catalog.
 *
 * @param id       unique in the catalog, never reused: a table dropped and created again under
 *                 the same name is another table
 * @param segments in row order
 */
record TableState(long id, String name, Schema schema, List<SegmentRef> segments) {
    TableState {
        segments = List.copyOf(segments);
    }

    long rowCount() {
        return segments.stream().mapToLong(SegmentRef::liveRows).sum();
    }

    TableState withSegments(List<SegmentRef> newSegments) {
        return new TableState(id, name, schema, newSegments);
    }
}
