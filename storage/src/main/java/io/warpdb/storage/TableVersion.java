package io.warpdb.storage;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.data.encoded.EncodedSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.warpdb.core.data.ColumnStatistics;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A table as one version of the catalog has it: what scans read and what DELETE and UPDATE
 * start from. Pinned when it comes from a {@link CatalogSnapshot} (readable until that closes);
 * from {@link Table#snapshot()} it is readable while the table exists and its segments are
 * still in use.
 */
final class TableVersion implements TableSource {
    private final Catalog catalog;
    private final TableState state;
    private final CatalogSnapshot pin;

    TableVersion(Catalog catalog, TableState state, CatalogSnapshot pin) {
        this.catalog = catalog;
        this.state = state;
        this.pin = pin;
    }

    TableState state() {
        return state;
    }

    Catalog catalog() {
        return catalog;
    }

    /** The version behind a source that must be a snapshot of {@code table}. */
    static TableVersion of(TableSource source, Table table) {
        if (source instanceof TableVersion v && v.catalog == table.catalog() && v.state.id() == table.id()) {
            return v;
        }
        throw new WarpException(SqlState.INTERNAL_ERROR, source.name() + " is not a snapshot of table " + table.name());
    }

    /** A version's state is immutable; the catalog tells apart tables of different databases. */
    @Override
    public Object dataVersion() {
        return java.util.List.of(catalog, state);
    }

    @Override
    public String name() {
        return state.name();
    }

    @Override
    public Schema schema() {
        return state.schema();
    }

    @Override
    public long rowCount() {
        return state.rowCount();
    }

    /** The column's zone maps folded over every segment of this version. */
    @Override
    public Optional<ColumnStatistics> statistics(int column) {
        long nulls = 0;
        Object min = null;
        Object max = null;
        for (SegmentRef ref : state.segments()) {
            ZoneMap zone = ref.segment().zoneMaps().get(column);
            nulls += zone.nullCount();
            if (zone.min() != null) {
                min = min == null || compare(zone.min(), min) < 0 ? zone.min() : min;
                max = max == null || compare(zone.max(), max) > 0 ? zone.max() : max;
            }
        }
        return Optional.of(new ColumnStatistics(nulls, min, max));
    }

    @SuppressWarnings("unchecked")
    private static int compare(Object a, Object b) {
        return ((Comparable<Object>) a).compareTo(b);
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        return scan(columns, List.of(), allocator);
    }

    /** Also accepts {@link Table#ROW_ID} among the columns. */
    @Override
    public BatchStream scan(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        return new TableScan(this, columns, predicates, allocator);
    }

    /** One part per segment the predicates' zone maps keep. */
    @Override
    public List<BatchStream> scanParts(List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        List<SegmentRef> segments = state.segments();
        List<BatchStream> parts = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            if (segments.get(i).segment().mayMatch(predicates, schema())) {
                parts.add(new TableScan(this, columns, predicates, allocator, i, i + 1));
            } else {
                catalog.countSkippedSegment();
            }
        }
        return parts;
    }

    /** The live rows of the segments the predicates' zone maps keep. */
    @Override
    public long rowsKept(List<ColumnPredicate> predicates) {
        long rows = 0;
        for (SegmentRef ref : state.segments()) {
            if (ref.segment().mayMatch(predicates, schema())) {
                rows += ref.liveRows();
            }
        }
        return rows;
    }

    /**
     * The columns' stored chunks, segment by segment, when no segment the predicates keep has a
     * deleted row and no column is a wide DECIMAL (stored as two streams, which no chunk description covers).
     */
    @Override
    public Optional<List<EncodedSegment>> encodedSegments(List<Integer> columns, List<ColumnPredicate> predicates) {
        if (columns.contains(Table.ROW_ID) || columns.stream().anyMatch(c -> schema().type(c).isWideDecimal())) {
            return Optional.empty();
        }
        checkReadable();
        List<SegmentRef> kept = new ArrayList<>();
        for (SegmentRef ref : state.segments()) {
            if (!ref.segment().mayMatch(predicates, schema())) {
                continue;
            }
            if (ref.deletes().cardinality() > 0) {
                return Optional.empty();
            }
            kept.add(ref);
        }
        List<EncodedSegment> segments = new ArrayList<>(kept.size());
        for (SegmentRef ref : kept) {
            Segment segment = ref.segment();
            List<EncodedColumnChunk> chunks = new ArrayList<>(columns.size());
            for (int c : columns) {
                chunks.add(segment.encodedChunk(c));
            }
            segments.add(new EncodedSegment(segment.rowCount(), chunks));
            catalog.countReadSegment(columns.size());
        }
        for (int skipped = state.segments().size() - kept.size(); skipped > 0; skipped--) {
            catalog.countSkippedSegment();
        }
        return Optional.of(segments);
    }

    /** Fails when this version can no longer be read safely: snapshot closed, table dropped. */
    void checkReadable() {
        if (pin != null) {
            pin.checkOpen();
        } else if (!catalog.contains(state.id())) {
            throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + state.name() + " was dropped while a query read it");
        }
    }
}
