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
import io.warpdb.core.types.TypeKind;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.ChunkScratch;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * Cuts appended rows into segments of a fixed number of rows, checking them against the table
 * on the way (column count, NOT NULL). Each batch is copied into the columns of the segment its
 * rows belong to, vectors of the exact segment size, and closed as soon as it is copied: string
 * codes are rewritten on the way against a segment-local dictionary holding exactly the values
 * used. Holding the batches until their segment was complete kept their memory (Arrow's and their
 * dictionaries' on the heap) alive for a whole segment, which made the garbage collector copy it
 * and grow the heap, and emptied Arrow's pooled chunks all at once so that new ones had to be
 * zeroed again.
 *
 * <p>The appending thread only routes: it hands each batch (or each slice of one at a segment
 * boundary) to its segment, whose copies run in order on the common fork-join pool, one segment
 * at a time per thread but different segments at once; merging the string dictionaries on the
 * appending thread alone was the limit of bulk loads on many cores. After a segment's last copy
 * its columns are encoded (zone maps, chunk encoding with {@link ChunkCodec}'s selector, the form
 * both stores keep), column by column by whichever threads are free. Segments are handed back in
 * row order, at most {@link #inFlightLimit} of them (the one being routed to included) being
 * filled or encoded at a time, which bounds the memory held by rows not yet encoded; a thread
 * waiting for one does its work rather than idle. The segment columns and the encoders' working
 * memory go back to this builder after each segment and serve the next ones; it frees them on close.
 */
final class SegmentBuilder implements AutoCloseable {
    private final String table;
    private final Schema schema;
    private final List<DataType> types;
    private final int segmentRows;
    private final BufferAllocator allocator;
    private final LongSupplier ids;
    private final int inFlightLimit = ForkJoinPool.getCommonPoolParallelism() + 1;
    /** The segments being filled or encoded, in row order; the last one is {@link #filling} while there is one. */
    private final ArrayDeque<PendingSegment> inFlight = new ArrayDeque<>();
    /** Encoding memory free for the next columns: each thread encoding takes one and puts it back. */
    private final Queue<ChunkScratch> scratches = new ConcurrentLinkedQueue<>();
    /** Segment columns free for the next segment: an encoding task puts its own back when done. */
    private final Queue<SegmentColumns> freeColumns = new ConcurrentLinkedQueue<>();
    /** Every segment columns made (on the appending thread), for {@link #close} to free. */
    private final List<SegmentColumns> allColumns = new ArrayList<>();
    /** The segment rows are routed to; null between segments. */
    private PendingSegment filling;
    /** Set by {@link #close}: copies not yet made are skipped, segments not yet sealed are not encoded. */
    private volatile boolean closing;

    SegmentBuilder(String table, Schema schema, int segmentRows, BufferAllocator allocator, LongSupplier ids) {
        this.table = table;
        this.schema = schema;
        this.types = schema.fields().stream().map(Field::type).toList();
        this.segmentRows = segmentRows;
        this.allocator = allocator;
        this.ids = ids;
    }

    /**
     * Takes the rows of {@code batch} (closing it once they are copied); returns the segments
     * completed and encoded by now, in row order, owned by the caller. A copy that fails fails
     * this call or a later one.
     */
    List<BuiltSegment> add(Batch batch) {
        try (SharedBatch shared = new SharedBatch(batch)) {
            check(batch);
            for (int from = 0; from < batch.rowCount(); ) {
                if (filling == null) {
                    filling = new PendingSegment(nextColumns(batch.rowCount() - from));
                    inFlight.add(filling);
                }
                int take = Math.min(segmentRows - filling.routed, batch.rowCount() - from);
                filling.append(shared, from, take);
                from += take;
                if (filling.routed == segmentRows) {
                    seal();
                }
            }
        }
        return takeEncoded(inFlightLimit);
    }

    /** The remaining segments, the last one partial, in row order; empty when no rows are left. */
    List<BuiltSegment> finish() {
        if (filling != null) {
            seal();
        }
        return takeEncoded(0);
    }

    /** Columns for the next segment, reused when some are free, else new ones with room for {@code rows} rows to begin with. */
    private SegmentColumns nextColumns(int rows) {
        SegmentColumns columns = freeColumns.poll();
        if (columns == null) {
            columns = new SegmentColumns(Math.min(rows, segmentRows)); // in allColumns first, so that close frees it whatever happens
        }
        return columns;
    }

    /** Ends the segment being filled: it is encoded after its last copy. Segment ids are taken here, in row order. */
    private void seal() {
        filling.seal(ids.getAsLong());
        filling = null;
    }

    /**
     * The encoded segments at the head of the queue: every one that is done, and as many more
     * as leave at most {@code keep} in flight. Rather than wait, this thread makes the copies
     * queued for segments in flight that no thread is making, and encodes the columns that no one
     * has started: at the end of a load the last segment is encoded by two threads instead of one
     * while the others idle, and on few cores the common pool's one worker (filling the head) gets
     * help with the next segments whenever the appending thread would block.
     */
    private List<BuiltSegment> takeEncoded(int keep) {
        List<BuiltSegment> done = new ArrayList<>();
        try {
            while (!inFlight.isEmpty() && (inFlight.size() > keep || inFlight.peek().segment.isDone())) {
                for (PendingSegment pending : inFlight) {
                    pending.fill();
                    pending.encode();
                }
                done.add(inFlight.peek().segment.join());
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

    /**
     * A batch whose rows go to one segment or, across a boundary, to several: each slice holds
     * it, and the last to be done with it (the copy of a slice, or the routing) closes it.
     */
    private static final class SharedBatch implements AutoCloseable {
        private final Batch batch;
        private final AtomicInteger holders = new AtomicInteger(1);

        SharedBatch(Batch batch) {
            this.batch = batch;
        }

        SharedBatch hold() {
            holders.incrementAndGet();
            return this;
        }

        @Override
        public void close() {
            if (holders.decrementAndGet() == 0) {
                batch.close();
            }
        }
    }

    /**
     * One segment from its first row to its encoding. The appending thread queues its steps (the
     * copies of slices, then the seal); they run in that order, one at a time, on whichever thread
     * drains the queue (a common pool task queued with each step, or a thread waiting for the
     * segment). A failed copy skips the rest, which still let go of their batches, and fails the
     * segment. After the seal each column is measured for its zone map, then encoded, by whichever
     * thread claims it; the thread finishing the last column completes the segment and frees the
     * columns for the next one. Columns are encoded independently, so the bytes do not depend on
     * who did which.
     */
    private final class PendingSegment {
        private final SegmentColumns columns;
        /** Rows handed to this segment so far; the appending thread's alone. */
        private int routed;
        /** Taken at the seal; the queue publishes it to the thread encoding. */
        private long id;
        private final Queue<Runnable> steps = new ConcurrentLinkedQueue<>();
        private final ReentrantLock filler = new ReentrantLock();
        /** The first copy that failed; read and written under {@link #filler}. */
        private Throwable failure;
        /** Set after the last copy: from then on the columns are only read, by the encoding. */
        private volatile boolean filled;
        private int rows;
        private final ZoneMap[] zoneMaps = new ZoneMap[schema.size()];
        private final EncodedChunk[] chunks = new EncodedChunk[schema.size()];
        /** Per column, why its encoding failed; the segment fails only once every column is done with its columns. */
        private final Throwable[] encodingFailures = new Throwable[schema.size()];
        private final AtomicInteger claimed = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();
        private final CompletableFuture<BuiltSegment> segment = new CompletableFuture<>();

        PendingSegment(SegmentColumns columns) {
            this.columns = columns;
        }

        /** Queues the copy of rows {@code [from, from + count)} of {@code batch} behind the rows routed here before. */
        void append(SharedBatch batch, int from, int count) {
            routed += count;
            SharedBatch held = batch.hold();
            enqueue(() -> {
                try (held) {
                    if (failure == null && !closing) {
                        columns.append(held.batch, from, count);
                    }
                }
            });
        }

        /** Queues the end of the segment: after the last copy, its encoding as segment {@code id}. */
        void seal(long id) {
            this.id = id;
            enqueue(this::sealed);
        }

        /** Ends a segment that close finds still open: only its queued copies' batches are let go. */
        void abandon() {
            enqueue(this::sealed);
        }

        private void enqueue(Runnable step) {
            steps.add(step);
            ForkJoinPool.commonPool().execute(this::fill);
        }

        /** Runs the queued steps in order, unless another thread is running them. */
        void fill() {
            while (!steps.isEmpty() && filler.tryLock()) {
                try {
                    for (Runnable step = steps.poll(); step != null; step = steps.poll()) {
                        try {
                            step.run();
                        } catch (RuntimeException | Error e) {
                            if (failure == null) {
                                failure = e;
                            }
                        }
                    }
                } finally {
                    filler.unlock();
                }
            }
        }

        /**
         * The last step: encodes the filled columns, here and on the pool, unless a copy failed or
         * the builder closes. Whatever happens the segment ends, so that no one waits for it forever.
         */
        private void sealed() {
            try {
                if (failure != null) {
                    segment.completeExceptionally(failure);
                } else if (closing) {
                    segment.cancel(false);
                } else {
                    rows = columns.rows;
                    filled = true;
                    if (chunks.length == 0) {
                        complete();
                    } else {
                        ForkJoinPool.commonPool().execute(this::encode);
                        encode();
                    }
                }
            } catch (RuntimeException | Error e) {
                segment.completeExceptionally(e);
                throw e;
            }
        }

        /** Encodes columns until none is left to claim; nothing before the last copy. */
        void encode() {
            if (!filled || claimed.get() >= schema.size()) {
                return;
            }
            ChunkScratch scratch = scratches.poll();
            if (scratch == null) {
                scratch = new ChunkScratch();
            }
            try {
                for (int c = claimed.getAndIncrement(); c < schema.size(); c = claimed.getAndIncrement()) {
                    try {
                        encode(c, scratch);
                    } catch (RuntimeException | Error e) {
                        encodingFailures[c] = e;
                    }
                    if (finished.incrementAndGet() == schema.size()) {
                        complete();
                    }
                }
            } finally {
                scratches.add(scratch);
            }
        }

        private void encode(int c, ChunkScratch scratch) {
            DataType type = types.get(c);
            FieldVector vector = columns.vectors.get(c);
            vector.setValueCount(rows);
            StringDictionary dict = columns.dictionary(c);
            zoneMaps[c] = ZoneMap.of(vector, type, dict, rows);
            chunks[c] = ChunkCodec.encode(vector, type, dict, rows, scratch);
        }

        /** After the last column (the counter orders every column's writes before this). */
        private void complete() {
            columns.clear();
            freeColumns.add(columns);
            Throwable failed = Arrays.stream(encodingFailures).filter(Objects::nonNull).findFirst().orElse(null);
            if (failed != null) {
                segment.completeExceptionally(failed);
            } else {
                segment.complete(new BuiltSegment(id, table, rows, List.of(zoneMaps), types, List.of(chunks)));
            }
        }
    }

    /**
     * The columns of one segment while it fills: a vector per column, grown to the segment's size
     * as rows come (a one-row INSERT allocates for one row, not a segment's worth), and
     * per string column its dictionary so far (UTF-8 bytes for batches that bring them, as loads
     * do; Strings once any batch does not). The vectors and UTF-8 dictionaries serve segment after
     * segment, so they are allocated at their full size only once.
     */
    /**
     * What a segment's string dictionary is sized for when its first batch comes: a segment whose
     * batches are like that one, as many distinct values per row (at most one) and as many bytes
     * per value (a million distinct comments would otherwise grow it six times over, each time a
     * copy), but for at most {@link #PRESIZED_BATCHES} such batches: the batch may be a few rows
     * under the dictionary of a much larger one (a cluster COPY sends each node its rows of a parsed
     * batch with that batch's dictionary), which scaled to the segment asked for 2 GB arrays on a
     * 1 GB heap; beyond that it grows by doubling.
     */
    record DictionarySize(int entries, int bytes) {
        static final int PRESIZED_BATCHES = 16;

        static DictionarySize presized(int entriesOfFirst, long bytesOfFirst, int rowsOfFirst, int segmentRows) {
            int rows = Math.max(1, rowsOfFirst);
            long segment = Math.min(segmentRows, (long) PRESIZED_BATCHES * rows);
            double entriesPerRow = Math.min(1.0, entriesOfFirst / (double) rows);
            double bytesPerEntry = entriesOfFirst == 0 ? 0 : bytesOfFirst / (double) entriesOfFirst;
            long entries = (long) Math.ceil(segment * entriesPerRow);
            return new DictionarySize((int) entries, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, entries * bytesPerEntry)));
        }
    }

    private final class SegmentColumns {
        private final List<FieldVector> vectors = new ArrayList<>(schema.size());
        /** Per string column, the UTF-8 dictionary kept from segment to segment, and whether this segment uses it. */
        private final Utf8Dictionary[] utf8 = new Utf8Dictionary[schema.size()];
        private final boolean[] inUtf8 = new boolean[schema.size()];
        private final StringDictionary.Builder[] strings = new StringDictionary.Builder[schema.size()];
        private int rows;

        SegmentColumns(int capacity) {
            allColumns.add(this);
            for (int c = 0; c < schema.size(); c++) {
                vectors.add(Vectors.allocate(schema.field(c).name(), types.get(c), capacity, allocator));
            }
        }

        /** Copies rows {@code [from, from + count)} of {@code batch} behind the rows already here. */
        void append(Batch batch, int from, int count) {
            for (FieldVector v : vectors) {
                while (v.getValueCapacity() < rows + count) {
                    v.reAlloc(); // doubles, and zeroes the new part as a fresh vector would be
                }
            }
            for (int c = 0; c < schema.size(); c++) {
                if (types.get(c).kind().isString()) {
                    appendStrings(batch, c, from, count);
                } else {
                    copyValues(batch.vector(c), from, count, vectors.get(c), rows);
                }
            }
            rows += count;
        }

        /** Re-encodes a string column's rows over the segment's dictionary; CHAR values are kept without trailing spaces. */
        private void appendStrings(Batch batch, int column, int from, int count) {
            IntVector codes = (IntVector) batch.vector(column);
            StringDictionary source = batch.dictionary(column);
            IntVector out = (IntVector) vectors.get(column);
            boolean isChar = types.get(column).kind() == TypeKind.CHAR;
            if (rows == 0 && source.utf8() != null) {
                if (utf8[column] == null) {
                    utf8[column] = newUtf8Dictionary(source.utf8(), batch.rowCount());
                }
                inUtf8[column] = true;
            } else if (rows == 0) {
                strings[column] = new StringDictionary.Builder(count);
            } else if (inUtf8[column] && source.utf8() == null) {
                strings[column] = asStrings(utf8[column]); // the same entries in the same order: the codes so far stay
                inUtf8[column] = false;
            }
            IntBuffer in = ints(codes, from + count);
            boolean anyNull = codes.getNullCount() > 0;
            int[] remap = inUtf8[column] ? remapUtf8(codes, in, anyNull, source, from, count, isChar, utf8[column])
                    : remapStrings(codes, source, from, count, isChar, strings[column]);
            IntBuffer outCodes = ints(out, rows + count);
            ArrowBuf validity = out.getValidityBuffer();
            for (int r = from, at = rows; r < from + count; r++, at++) {
                if (anyNull && codes.isNull(r)) {
                    out.setNull(at);
                    continue;
                }
                outCodes.put(at, remap[in.get(r)]);
                if (anyNull) {
                    BitVectorHelper.setBit(validity, at);
                }
            }
            if (!anyNull) {
                setValid(validity, rows, count);
            }
        }

        private Utf8Dictionary newUtf8Dictionary(Utf8Strings first, int rowsOfFirst) {
            long bytes = first.size() == 0 ? 0 : first.offset(first.size()) - first.offset(0);
            DictionarySize size = DictionarySize.presized(first.size(), bytes, rowsOfFirst, segmentRows);
            return new Utf8Dictionary(size.entries(), size.bytes());
        }

        /** The segment's dictionary of a string column (null for other columns), complete once the segment is. */
        StringDictionary dictionary(int column) {
            if (inUtf8[column]) {
                return StringDictionary.ofUtf8(utf8[column].build(), true);
            }
            return strings[column] == null ? null : strings[column].build();
        }

        /**
         * Empties the columns for the next segment. Every row's validity bit is written as it is
         * copied; clearing the bitmap keeps the bits past a partial last segment's rows zero, as in a
         * fresh vector, so that its encoding does not depend on the segments before.
         */
        void clear() {
            for (FieldVector v : vectors) {
                v.getValidityBuffer().setZero(0, v.getValidityBuffer().capacity());
                v.setValueCount(0);
            }
            for (Utf8Dictionary dictionary : utf8) {
                if (dictionary != null) {
                    dictionary.clear();
                }
            }
            Arrays.fill(inUtf8, false);
            Arrays.fill(strings, null);
            rows = 0;
        }
    }

    /** Copies {@code count} values of {@code in} from {@code from} to {@code out} at {@code at}; without nulls in one block, else value by value. */
    private static void copyValues(FieldVector in, int from, int count, FieldVector out, int at) {
        if (in instanceof BaseFixedWidthVector fixed && fixed.getTypeWidth() > 0 && in.getNullCount() == 0) {
            long width = fixed.getTypeWidth();
            out.getDataBuffer().setBytes(at * width, in.getDataBuffer(), from * width, count * width);
            setValid(out.getValidityBuffer(), at, count);
        } else {
            for (int r = 0; r < count; r++) {
                out.copyFromSafe(from + r, at + r, in);
            }
        }
    }

    /**
     * Sets the validity bits of rows {@code [from, from + count)}: whole bytes at once, bit by bit only at the
     * ends. A bit at a time through Arrow's checked setter was a visible part of appending a batch.
     */
    private static void setValid(ArrowBuf validity, int from, int count) {
        int r = from;
        int end = from + count;
        for (; r < end && (r & 7) != 0; r++) {
            BitVectorHelper.setBit(validity, r);
        }
        int wholeBytes = (end - r) >>> 3;
        if (wholeBytes > 0) {
            validity.setOne(r >>> 3, wholeBytes);
            r += wholeBytes << 3;
        }
        for (; r < end; r++) {
            BitVectorHelper.setBit(validity, r);
        }
    }

    /** The first {@code rows} values of an INTEGER vector's data as a little-endian view: plain reads and writes, no per-value checks of Arrow's. */
    private static IntBuffer ints(IntVector vector, int rows) {
        return vector.getDataBuffer().nioBuffer(0, rows * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    }

    /** A UTF-8 dictionary's entries as Strings, in order. */
    private static StringDictionary.Builder asStrings(Utf8Dictionary dictionary) {
        StringDictionary entries = StringDictionary.ofUtf8(dictionary.build(), true);
        StringDictionary.Builder strings = new StringDictionary.Builder(entries.size());
        for (int code = 0; code < entries.size(); code++) {
            strings.add(entries.get(code));
        }
        return strings;
    }

    /** Segment codes for the source codes that rows {@code [from, from + count)} use (-1 for the others), by String. */
    private static int[] remapStrings(IntVector codes, StringDictionary source, int from, int count, boolean isChar,
            StringDictionary.Builder dict) {
        int[] remap = remap(source.size());
        for (int r = from; r < from + count; r++) {
            if (!codes.isNull(r) && remap[codes.get(r)] < 0) {
                String value = source.get(codes.get(r));
                remap[codes.get(r)] = dict.add(isChar ? value.stripTrailing() : value);
            }
        }
        return remap;
    }

    /**
     * As {@link #remapStrings} for a source dictionary of UTF-8 (bulk loads): the distinct values are
     * found by hashing the bytes, no String made, a block at a time in the order first used. CHAR
     * values from a load come stripped already; one that may end in white space is stripped here, decoded.
     */
    private static int[] remapUtf8(IntVector rowCodes, IntBuffer codeValues, boolean anyNull, StringDictionary source, int from,
            int count, boolean isChar, Utf8Dictionary dict) {
        Utf8Strings entries = source.utf8();
        int[] remap = remap(source.size());
        int[] starts = new int[Utf8Dictionary.BLOCK];
        int[] ends = new int[Utf8Dictionary.BLOCK];
        int[] sourceCodes = new int[Utf8Dictionary.BLOCK];
        int[] codes = new int[Utf8Dictionary.BLOCK];
        int pending = 0;
        for (int r = from; r < from + count; r++) {
            if (anyNull && rowCodes.isNull(r)) {
                continue;
            }
            int code = codeValues.get(r);
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
            starts[pending] = start;
            ends[pending] = end;
            if (++pending == Utf8Dictionary.BLOCK) {
                addBlock(dict, entries, starts, ends, sourceCodes, pending, codes, remap);
                pending = 0;
            }
        }
        addBlock(dict, entries, starts, ends, sourceCodes, pending, codes, remap);
        return remap;
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

    /**
     * Frees everything: the rows not handed back (by letting the queued copies go and waiting for
     * the segments still encoding), and the segment columns.
     */
    @Override
    public void close() {
        closing = true;
        if (filling != null) {
            filling.abandon();
            filling = null;
        }
        for (PendingSegment pending : inFlight) {
            pending.fill();
            try {
                pending.segment.join();
            } catch (CompletionException | CancellationException e) {
                // That segment failed or was given up; whoever closes early is already failing.
            }
        }
        inFlight.clear();
        freeColumns.clear();
        allColumns.forEach(c -> c.vectors.forEach(FieldVector::close));
        allColumns.clear();
    }
}
