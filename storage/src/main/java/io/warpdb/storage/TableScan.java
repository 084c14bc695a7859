package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A scan of one table version: segments in order, skipping those whose zone maps prove the
 * predicates false, reading only the requested columns, leaving out deleted rows, in batches of
 * at most {@link StorageOptions#scanBatchRows()} rows. Batches share buffers with the segment
 * (or cache) where no row is deleted, and are compacted copies where some are.
 */
final class TableScan implements BatchStream {
    private final TableVersion version;
    private final List<Integer> columns;
    private final List<ColumnPredicate> predicates;
    private final BufferAllocator allocator;
    private final Schema outSchema;
    /** Data columns read from segments, in request order without ROW_ID. */
    private final List<Integer> dataColumns = new ArrayList<>();
    /** For each requested column, its position in {@link #dataColumns}, or -1 for ROW_ID. */
    private final int[] dataIndex;
    private final int batchRows;
    /** Segments of the version this scan reads: [first segment, {@link #endSegment}). */
    private final int endSegment;

    private int nextSegment;
    private SegmentRef segment;
    private Batch data;
    private int position;

    TableScan(TableVersion version, List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator) {
        this(version, columns, predicates, allocator, 0, version.state().segments().size());
    }

    /** A scan of the version's segments [{@code firstSegment}, {@code endSegment}) only. */
    TableScan(TableVersion version, List<Integer> columns, List<ColumnPredicate> predicates, BufferAllocator allocator,
            int firstSegment, int endSegment) {
        this.version = version;
        this.nextSegment = firstSegment;
        this.endSegment = endSegment;
        this.columns = List.copyOf(columns);
        this.predicates = List.copyOf(predicates);
        this.allocator = allocator;
        this.batchRows = version.catalog().options().scanBatchRows();
        Schema schema = version.schema();
        List<Field> fields = new ArrayList<>(columns.size());
        dataIndex = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            int c = columns.get(i);
            if (c == Table.ROW_ID) {
                fields.add(Table.ROW_ID_FIELD);
                dataIndex[i] = -1;
            } else {
                fields.add(schema.field(c));
                dataIndex[i] = dataColumns.size();
                dataColumns.add(c);
            }
        }
        this.outSchema = new Schema(fields);
    }

    @Override
    public Schema schema() {
        return outSchema;
    }

    @Override
    public Batch next() {
        version.checkReadable();
        while (true) {
            if (data == null && !openNextSegment()) {
                return null;
            }
            if (position == segment.segment().rowCount()) {
                closeSegment();
                continue;
            }
            int from = position;
            position = Math.min(from + batchRows, segment.segment().rowCount());
            Batch out = rows(from, position);
            if (out != null) {
                return out;
            }
        }
    }

    /** Reads the next segment the predicates do not rule out; false at the end. */
    private boolean openNextSegment() {
        List<SegmentRef> segments = version.state().segments();
        Schema schema = version.schema();
        while (nextSegment < endSegment) {
            SegmentRef ref = segments.get(nextSegment++);
            if (!ref.segment().mayMatch(predicates, schema)) {
                version.catalog().countSkippedSegment();
                continue;
            }
            data = ref.segment().read(schema, dataColumns, allocator);
            segment = ref;
            position = 0;
            version.catalog().countReadSegment(dataColumns.size());
            return true;
        }
        return false;
    }

    /** The live rows of [from, to) of the current segment, or null when all are deleted. */
    private Batch rows(int from, int to) {
        int[] live = liveRows(from, to);
        int count = live == null ? to - from : live.length;
        if (count == 0) {
            return null;
        }
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        List<StringDictionary> dictionaries = new ArrayList<>(columns.size());
        try {
            for (int i = 0; i < columns.size(); i++) {
                if (dataIndex[i] < 0) {
                    vectors.add(rowIds(from, live, count));
                    dictionaries.add(null);
                } else {
                    FieldVector source = data.vector(dataIndex[i]);
                    vectors.add(live == null ? Segment.slice(source, from, count, allocator) : copy(source, i, live));
                    dictionaries.add(data.dictionary(dataIndex[i]));
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(outSchema, vectors, dictionaries, count);
    }

    /** The rows of [from, to) not deleted, or null when none is deleted (the common case). */
    private int[] liveRows(int from, int to) {
        DeleteVector deletes = segment.deletes();
        int deleted = deletes.countIn(from, to);
        if (deleted == 0) {
            return null;
        }
        int[] live = new int[to - from - deleted];
        int at = 0;
        for (int r = from; r < to; r++) {
            if (!deletes.contains(r)) {
                live[at++] = r;
            }
        }
        return live;
    }

    private FieldVector copy(FieldVector source, int column, int[] rows) {
        FieldVector out = Vectors.allocate(outSchema.field(column).name(), outSchema.type(column), rows.length, allocator);
        for (int i = 0; i < rows.length; i++) {
            out.copyFromSafe(rows[i], i, source);
        }
        out.setValueCount(rows.length);
        return out;
    }

    /** Row ids ({@code segment id << 32 | row}): of rows [from, from + count), or of {@code live} when not null. */
    private FieldVector rowIds(int from, int[] live, int count) {
        BigIntVector out = (BigIntVector) Vectors.allocate(Table.ROW_ID_FIELD.name(), Table.ROW_ID_FIELD.type(), count, allocator);
        long base = segment.segment().id() << 32;
        for (int i = 0; i < count; i++) {
            out.set(i, base | (live == null ? from + i : live[i]));
        }
        out.setValueCount(count);
        return out;
    }

    private void closeSegment() {
        data.close();
        data = null;
        segment = null;
    }

    @Override
    public void close() {
        if (data != null) {
            closeSegment();
        }
        nextSegment = endSegment;
    }
}
