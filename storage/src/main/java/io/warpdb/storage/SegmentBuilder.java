package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * Cuts appended rows into segments of a fixed number of rows, checking them against the table
 * on the way (column count, NOT NULL). Rows wait as shared slices of the incoming batches and are
 * copied once, into vectors of the exact segment size, when a segment is complete; string codes
 * are then rewritten against a segment-local dictionary holding exactly the values used.
 */
final class SegmentBuilder implements AutoCloseable {
    private final String table;
    private final Schema schema;
    private final int segmentRows;
    private final BufferAllocator allocator;
    private final LongSupplier ids;
    private final List<Batch> pending = new ArrayList<>();
    private int pendingRows;

    SegmentBuilder(String table, Schema schema, int segmentRows, BufferAllocator allocator, LongSupplier ids) {
        this.table = table;
        this.schema = schema;
        this.segmentRows = segmentRows;
        this.allocator = allocator;
        this.ids = ids;
    }

    /** Takes the rows of {@code batch} (closing it); returns the segments they completed, owned by the caller. */
    List<MemorySegment> add(Batch batch) {
        try (batch) {
            check(batch);
            List<MemorySegment> done = new ArrayList<>();
            for (int from = 0; from < batch.rowCount(); ) {
                int take = Math.min(segmentRows - pendingRows, batch.rowCount() - from);
                pending.add(slice(batch, from, take));
                pendingRows += take;
                from += take;
                if (pendingRows == segmentRows) {
                    done.add(build());
                }
            }
            return done;
        }
    }

    /** The last, partial segment, or null when no rows are pending. */
    MemorySegment finish() {
        return pendingRows == 0 ? null : build();
    }

    private void check(Batch batch) {
        if (batch.columnCount() != schema.size()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "table " + table + " has " + schema.size()
                    + " columns but " + batch.columnCount() + " values were given");
        }
        for (int c = 0; c < schema.size(); c++) {
            Field field = schema.field(c);
            if (!batch.vector(c).getField().getType().equals(field.type().arrowType())) {
                throw new WarpException(SqlState.DATATYPE_MISMATCH, "column " + field.name() + " of table " + table + " is "
                        + field.type() + " but a batch column of Arrow type " + batch.vector(c).getField().getType() + " was given");
            }
            if (!field.type().nullable() && batch.vector(c).getNullCount() > 0) {
                throw new WarpException(SqlState.NOT_NULL_VIOLATION, "column " + field.name() + " of table " + table
                        + " is NOT NULL but a NULL value was given");
            }
        }
    }

    private Batch slice(Batch batch, int from, int count) {
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        for (FieldVector v : batch.vectors()) {
            vectors.add(Segment.slice(v, from, count, allocator));
        }
        return new Batch(batch.schema(), vectors, batch.dictionaries(), count);
    }

    private MemorySegment build() {
        int rows = pendingRows;
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        List<ZoneMap> zoneMaps = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                FieldVector out = Vectors.allocate(schema.field(c).name(), type, rows, allocator);
                vectors.add(out);
                StringDictionary dict = null;
                if (type.kind().isString()) {
                    dict = copyStrings(c, (IntVector) out);
                } else {
                    copyValues(c, out);
                }
                out.setValueCount(rows);
                dictionaries.add(dict);
                zoneMaps.add(ZoneMap.of(out, type, dict, rows));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        pending.forEach(Batch::close);
        pending.clear();
        pendingRows = 0;
        return new MemorySegment(ids.getAsLong(), table, rows, zoneMaps, vectors, dictionaries);
    }

    private void copyValues(int column, FieldVector out) {
        int at = 0;
        for (Batch b : pending) {
            FieldVector in = b.vector(column);
            for (int r = 0; r < b.rowCount(); r++) {
                out.copyFromSafe(r, at++, in);
            }
        }
    }

    /** Re-encodes a string column over one dictionary; CHAR values are kept without trailing spaces. */
    private StringDictionary copyStrings(int column, IntVector out) {
        boolean isChar = schema.type(column).kind() == io.warpdb.core.types.TypeKind.CHAR;
        StringDictionary.Builder dict = new StringDictionary.Builder();
        int at = 0;
        for (Batch b : pending) {
            IntVector codes = (IntVector) b.vector(column);
            StringDictionary source = b.dictionary(column);
            int[] remap = new int[source.size()];
            Arrays.fill(remap, -1);
            for (int r = 0; r < b.rowCount(); r++, at++) {
                if (codes.isNull(r)) {
                    out.setNull(at);
                } else {
                    int code = codes.get(r);
                    if (remap[code] < 0) {
                        String value = source.get(code);
                        remap[code] = dict.add(isChar ? value.stripTrailing() : value);
                    }
                    out.set(at, remap[code]);
                }
            }
        }
        return dict.build();
    }

    @Override
    public void close() {
        pending.forEach(Batch::close);
        pending.clear();
        pendingRows = 0;
    }
}
