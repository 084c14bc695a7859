package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * Cuts appended rows into segments of a fixed number of rows, checking them against the table
 * on the way (column count, NOT NULL). Rows wait as shared slices of the incoming batches and are
 * copied once, into vectors of the exact segment size, when a segment is complete; string codes
 * are then rewritten against a segment-local dictionary holding exactly the values used, and each
 * column is encoded with {@link ChunkCodec}'s selector (the form both stores keep) and freed.
 *
 * <p>Completed segments are encoded (copy, re-encoding, zone maps, chunk encoding) on the common fork-join pool
 * while the caller goes on appending: done on the appending thread alone, this was the limit of
 * bulk loads on many cores. Segments are handed back in row order, at most {@link #inFlightLimit}
 * of them being encoded at a time, which bounds the memory held by rows not yet encoded.
 */
final class SegmentBuilder implements AutoCloseable {
    private final String table;
    private final Schema schema;
    private final List<DataType> types;
    private final int segmentRows;
    private final BufferAllocator allocator;
    private final LongSupplier ids;
    private final int inFlightLimit = ForkJoinPool.getCommonPoolParallelism() + 1;
    private final ArrayDeque<CompletableFuture<BuiltSegment>> inFlight = new ArrayDeque<>();
    private List<Batch> pending = new ArrayList<>();
    private int pendingRows;

    SegmentBuilder(String table, Schema schema, int segmentRows, BufferAllocator allocator, LongSupplier ids) {
        this.table = table;
        this.schema = schema;
        this.types = schema.fields().stream().map(Field::type).toList();
        this.segmentRows = segmentRows;
        this.allocator = allocator;
        this.ids = ids;
    }

    /**
     * Takes the rows of {@code batch} (closing it); returns the segments completed and encoded
     * by now, in row order, owned by the caller.
     */
    List<BuiltSegment> add(Batch batch) {
        try (batch) {
            check(batch);
            for (int from = 0; from < batch.rowCount(); ) {
                int take = Math.min(segmentRows - pendingRows, batch.rowCount() - from);
                pending.add(slice(batch, from, take));
                pendingRows += take;
                from += take;
                if (pendingRows == segmentRows) {
                    seal();
                }
            }
        }
        return takeEncoded(inFlightLimit);
    }

    /** The remaining segments, the last one partial, in row order; empty when no rows are left. */
    List<BuiltSegment> finish() {
        if (pendingRows > 0) {
            seal();
        }
        return takeEncoded(0);
    }

    /** Starts encoding the pending rows as the next segment; from here on they belong to the encoding task. */
    private void seal() {
        List<Batch> batches = pending;
        int rows = pendingRows;
        long id = ids.getAsLong();
        pending = new ArrayList<>();
        pendingRows = 0;
        inFlight.add(CompletableFuture.supplyAsync(() -> encode(id, batches, rows), ForkJoinPool.commonPool()));
    }

    /**
     * The encoded segments at the head of the queue: every one that is done, and as many more
     * (waiting for them) as leave at most {@code keep} in flight.
     */
    private List<BuiltSegment> takeEncoded(int keep) {
        List<BuiltSegment> done = new ArrayList<>();
        try {
            while (!inFlight.isEmpty() && (inFlight.size() > keep || inFlight.peek().isDone())) {
                done.add(inFlight.peek().join());
                inFlight.remove();
            }
        } catch (CompletionException e) {
            inFlight.remove();
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return done;
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

    /**
     * Copies {@code rows} rows of {@code batches} (closing them) into a new segment, a column at
     * a time: copied, measured for its zone map, encoded, and freed.
     */
    private BuiltSegment encode(long id, List<Batch> batches, int rows) {
        List<EncodedChunk> chunks = new ArrayList<>(schema.size());
        List<ZoneMap> zoneMaps = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = types.get(c);
                try (FieldVector out = Vectors.allocate(schema.field(c).name(), type, rows, allocator)) {
                    StringDictionary dict = null;
                    if (type.kind().isString()) {
                        dict = copyStrings(batches, c, (IntVector) out);
                    } else {
                        copyValues(batches, c, out);
                    }
                    out.setValueCount(rows);
                    zoneMaps.add(ZoneMap.of(out, type, dict, rows));
                    chunks.add(ChunkCodec.encode(out, type, dict, rows));
                }
            }
        } finally {
            batches.forEach(Batch::close);
        }
        return new BuiltSegment(id, table, rows, zoneMaps, types, chunks);
    }

    /** Copies a column; fixed-width values without nulls in one block per batch, the rest value by value. */
    private static void copyValues(List<Batch> batches, int column, FieldVector out) {
        int at = 0;
        for (Batch b : batches) {
            FieldVector in = b.vector(column);
            int rows = b.rowCount();
            if (in instanceof BaseFixedWidthVector fixed && fixed.getTypeWidth() > 0 && in.getNullCount() == 0) {
                long width = fixed.getTypeWidth();
                out.getDataBuffer().setBytes(at * width, in.getDataBuffer(), 0, rows * width);
                ArrowBuf validity = out.getValidityBuffer();
                for (int r = 0; r < rows; r++) {
                    BitVectorHelper.setBit(validity, at + r);
                }
            } else {
                for (int r = 0; r < rows; r++) {
                    out.copyFromSafe(r, at + r, in);
                }
            }
            at += rows;
        }
    }

    /** Re-encodes a string column over one dictionary; CHAR values are kept without trailing spaces. */
    private StringDictionary copyStrings(List<Batch> batches, int column, IntVector out) {
        boolean isChar = schema.type(column).kind() == io.warpdb.core.types.TypeKind.CHAR;
        // The batches' dictionaries together bound the segment's distinct values.
        int bound = Math.min(batches.stream().mapToInt(b -> b.dictionary(column).size()).sum(), out.getValueCapacity());
        if (batches.stream().allMatch(b -> b.dictionary(column).utf8() != null)) {
            return copyUtf8(batches, column, out, isChar, bound);
        }
        StringDictionary.Builder dict = new StringDictionary.Builder(bound);
        int at = 0;
        for (Batch b : batches) {
            IntVector codes = (IntVector) b.vector(column);
            StringDictionary source = b.dictionary(column);
            int[] remap = remap(source.size());
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

    /**
     * {@link #copyStrings} for batches whose dictionaries hold UTF-8 (bulk loads): the distinct
     * values are found by hashing the bytes, no String made. CHAR values from a load come
     * stripped already; one that may end in white space is stripped here, decoded.
     */
    private static StringDictionary copyUtf8(List<Batch> batches, int column, IntVector out, boolean isChar, int bound) {
        long bytes = batches.stream().mapToLong(b -> {
            Utf8Strings u = b.dictionary(column).utf8();
            return u.size() == 0 ? 0 : u.offset(u.size()) - u.offset(0);
        }).sum();
        Utf8Dictionary dict = new Utf8Dictionary(bound, (int) Math.min(bytes, Integer.MAX_VALUE - 8));
        int[] from = new int[Utf8Dictionary.BLOCK];
        int[] to = new int[Utf8Dictionary.BLOCK];
        int[] sourceCodes = new int[Utf8Dictionary.BLOCK];
        int[] codes = new int[Utf8Dictionary.BLOCK];
        int at = 0;
        for (Batch b : batches) {
            IntVector rowCodes = (IntVector) b.vector(column);
            StringDictionary source = b.dictionary(column);
            Utf8Strings entries = source.utf8();
            int[] remap = remap(source.size());
            // First the entries the rows use, looked up a block at a time in the order first used; then the rows' codes.
            int pending = 0;
            for (int r = 0; r < b.rowCount(); r++) {
                if (rowCodes.isNull(r)) {
                    continue;
                }
                int code = rowCodes.get(r);
                if (remap[code] != -1) {
                    continue;
                }
                int start = entries.offset(code);
                int end = start + entries.length(code);
                if (isChar && end > start && entries.bytes()[end - 1] <= ' ') { // white space or non-ASCII
                    byte[] stripped = source.get(code).stripTrailing().getBytes(StandardCharsets.UTF_8);
                    remap[code] = dict.add(stripped, 0, stripped.length);
                    continue;
                }
                remap[code] = -2; // looked up with its block
                sourceCodes[pending] = code;
                from[pending] = start;
                to[pending] = end;
                if (++pending == Utf8Dictionary.BLOCK) {
                    addBlock(dict, entries, from, to, sourceCodes, pending, codes, remap);
                    pending = 0;
                }
            }
            addBlock(dict, entries, from, to, sourceCodes, pending, codes, remap);
            for (int r = 0; r < b.rowCount(); r++, at++) {
                if (rowCodes.isNull(r)) {
                    out.setNull(at);
                } else {
                    out.set(at, remap[rowCodes.get(r)]);
                }
            }
        }
        return StringDictionary.ofUtf8(dict.build(), true);
    }

    private static void addBlock(Utf8Dictionary dict, Utf8Strings entries, int[] from, int[] to, int[] sourceCodes, int count,
            int[] codes, int[] remap) {
        dict.addBlock(entries.bytes(), from, to, count, codes);
        for (int i = 0; i < count; i++) {
            remap[sourceCodes[i]] = codes[i];
        }
    }

    private static int[] remap(int size) {
        int[] remap = new int[size];
        Arrays.fill(remap, -1);
        return remap;
    }

    /** Frees the rows not handed back: pending ones, and (by waiting for them) those of segments still encoding. */
    @Override
    public void close() {
        pending.forEach(Batch::close);
        pending.clear();
        pendingRows = 0;
        for (CompletableFuture<BuiltSegment> f : inFlight) {
            try {
                f.join();
            } catch (CompletionException e) {
                // That encoding failed and freed what it held; whoever closes early is already failing.
            }
        }
        inFlight.clear();
    }
}
