package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.roaringbitmap.RoaringBitmap;

/**
 * One write to a table (append, delete or both), prepared off to the side and then committed
 * in one step: new segments, and new delete vectors for the segments it deletes from. All data
 * files are written before the commit, outside the catalog's commit lock.
 *
 * <p>Deletes are made against a snapshot ({@code base}) and rebased onto whatever the table
 * holds at commit time, provided each segment they touch still has the delete vector the
 * snapshot saw: appends in between are fine, competing deletes (or updates) of the same
 * segment are a conflict ("concurrent modification of table T; retry").
 */
final class TableWrite implements AutoCloseable {
    private final Catalog catalog;
    private final long tableId;
    private final String table;
    private final Schema schema;
    private final TableState base;
    /** Segment id to its new delete vector; the references are this write's until it closes. */
    private final Map<Long, DeleteVector> replaced = new HashMap<>();
    /** Segments whose every row is now deleted: dropped from the table. */
    private final Set<Long> emptied = new HashSet<>();
    private final List<Segment> added = new ArrayList<>();

    TableWrite(Catalog catalog, long tableId, String table, Schema schema, TableState base) {
        this.catalog = catalog;
        this.tableId = tableId;
        this.table = table;
        this.schema = schema;
        this.base = base;
    }

    /**
     * Deletes the rows whose ids (column 0 of the stream, from a scan of {@code base}) are
     * given; prepares a new delete vector per touched segment.
     *
     * @return the number of rows newly deleted
     */
    long delete(BatchStream rowIds) {
        Map<Long, SegmentRef> segments = bySegmentId(base);
        Map<Long, RoaringBitmap> rows = new HashMap<>();
        for (Batch next = rowIds.next(); next != null; next = rowIds.next()) {
            try (Batch b = next) {
                BigIntVector ids = (BigIntVector) b.vector(0);
                for (int r = 0; r < b.rowCount(); r++) {
                    long rowId = ids.isNull(r) ? -1 : ids.get(r);
                    SegmentRef ref = segments.get(rowId >>> 32);
                    int row = (int) rowId;
                    if (rowId < 0 || ref == null || row < 0 || row >= ref.segment().rowCount()) {
                        throw new WarpException(SqlState.INTERNAL_ERROR, "row id " + rowId + " is not a row of table "
                                + table + " in the given snapshot");
                    }
                    rows.computeIfAbsent(rowId >>> 32, k -> new RoaringBitmap()).add(row);
                }
            }
        }
        long deleted = 0;
        for (Map.Entry<Long, RoaringBitmap> e : rows.entrySet()) {
            SegmentRef ref = segments.get(e.getKey());
            RoaringBitmap all = ref.deletes().union(e.getValue());
            long newly = all.getLongCardinality() - ref.deletes().cardinality();
            deleted += newly;
            if (all.getLongCardinality() == ref.segment().rowCount()) {
                emptied.add(e.getKey());
            } else if (newly > 0) {
                replaced.put(e.getKey(), catalog.store().persistDeletes(catalog.nextId(), all));
            }
        }
        return deleted;
    }

    /** Cuts the rows into segments and stores them (durable: writes their files). */
    long insert(BatchStream rows) {
        try (SegmentBuilder builder = new SegmentBuilder(table, schema, catalog.options().segmentRows(), catalog.allocator(),
                catalog::nextId)) {
            long count = 0;
            for (Batch b = rows.next(); b != null; b = rows.next()) {
                count += b.rowCount();
                persist(builder.add(b));
            }
            persist(builder.finish());
            return count;
        }
    }

    /** Stores each built segment into {@link #added}. */
    private void persist(List<BuiltSegment> built) {
        for (BuiltSegment segment : built) {
            added.add(catalog.store().persist(segment));
        }
    }

    /** Publishes the write as the catalog's next version; only checks the table exists when there is nothing to write. */
    void commit() {
        if (replaced.isEmpty() && emptied.isEmpty() && added.isEmpty()) {
            catalog.manifest().tableOrThrow(tableId, table);
        } else {
            catalog.commit(this::applyTo);
        }
    }

    /** Keeps the appended segments as staged load {@code load} of the table (see {@link Table#stage}). */
    void stage(String load) {
        if (!replaced.isEmpty() || !emptied.isEmpty()) {
            throw new IllegalStateException("only appends are staged");
        }
        catalog.commit(m -> m.withStaged(load, m.tableOrThrow(tableId, table), addedRefs()));
    }

    private Manifest applyTo(Manifest m) {
        TableState current = m.tableOrThrow(tableId, table);
        Set<Long> touched = new HashSet<>(replaced.keySet());
        touched.addAll(emptied);
        Map<Long, SegmentRef> seen = touched.isEmpty() ? Map.of() : bySegmentId(base);
        List<SegmentRef> segments = new ArrayList<>(current.segments().size() + added.size());
        int found = 0;
        for (SegmentRef ref : current.segments()) {
            long segmentId = ref.segment().id();
            if (!touched.contains(segmentId)) {
                segments.add(ref);
                continue;
            }
            if (ref.deletes() != seen.get(segmentId).deletes()) {
                throw concurrentModification();
            }
            found++;
            if (replaced.containsKey(segmentId)) {
                segments.add(new SegmentRef(ref.segment(), replaced.get(segmentId)));
            }
        }
        if (found != touched.size()) {
            throw concurrentModification(); // a touched segment is gone: emptied by another delete
        }
        segments.addAll(addedRefs());
        return m.with(current.withSegments(segments));
    }

    /** The appended segments as a table holds them: without deletes. */
    private List<SegmentRef> addedRefs() {
        return added.stream().map(s -> new SegmentRef(s, DeleteVector.NONE)).toList();
    }

    private static Map<Long, SegmentRef> bySegmentId(TableState state) {
        Map<Long, SegmentRef> byId = new HashMap<>();
        for (SegmentRef ref : state.segments()) {
            byId.put(ref.segment().id(), ref);
        }
        return byId;
    }

    private WarpException concurrentModification() {
        return new WarpException(SqlState.INTERNAL_ERROR, "concurrent modification of table " + table + "; retry");
    }

    /** Lets go of this write's references: committed objects live on in the new version, the rest are freed. */
    @Override
    public void close() {
        replaced.values().forEach(DeleteVector::release);
        added.forEach(Segment::release);
    }
}
