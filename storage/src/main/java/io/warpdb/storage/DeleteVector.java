package io.warpdb.storage;

import org.roaringbitmap.RoaringBitmap;

/**
 * The deleted rows of one segment, by row number. Immutable: a DELETE builds a new vector (the
 * old rows plus the new ones) that replaces this one in the next version, so snapshots keep
 * seeing theirs. A durable vector has a file of its own, deleted when no version uses it.
 */
final class DeleteVector extends RefCounted {
    /** The vector of every segment without deletes; its creator's reference is never released. */
    static final DeleteVector NONE = new DeleteVector(new RoaringBitmap(), 0, () -> { });

    private final RoaringBitmap rows;
    private final long cardinality;
    private final long fileId;
    private final Runnable onFree;

    /**
     * @param rows   deleted row numbers; not modified afterwards, so readers need no lock
     * @param fileId id of the file holding the vector, 0 when it lives only in memory
     * @param onFree what to do once no version refers to it (delete the file)
     */
    DeleteVector(RoaringBitmap rows, long fileId, Runnable onFree) {
        this.rows = rows;
        this.cardinality = rows.getLongCardinality();
        this.fileId = fileId;
        this.onFree = onFree;
    }

    long cardinality() {
        return cardinality;
    }

    long fileId() {
        return fileId;
    }

    boolean contains(int row) {
        return rows.contains(row);
    }

    /** Deleted rows in [from, to). */
    int countIn(int from, int to) {
        return cardinality == 0 ? 0 : (int) rows.rangeCardinality(from, to);
    }

    /** These rows and {@code more}, as a new bitmap. */
    RoaringBitmap union(RoaringBitmap more) {
        RoaringBitmap all = RoaringBitmap.or(rows, more);
        all.runOptimize();
        return all;
    }

    @Override
    protected void free() {
        onFree.run();
    }

    @Override
    public String toString() {
        return "DeleteVector[" + cardinality + " rows" + (fileId == 0 ? "" : ", file " + fileId) + "]";
    }
}
