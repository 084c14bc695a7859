package io.warpdb.storage;

/** A segment as one version sees it: the segment and the rows deleted from it so far. */
record SegmentRef(Segment segment, DeleteVector deletes) {
    long liveRows() {
        return segment.rowCount() - deletes.cardinality();
    }

    void retain() {
        segment.retain();
        deletes.retain();
    }

    void release() {
        segment.release();
        deletes.release();
    }
}
