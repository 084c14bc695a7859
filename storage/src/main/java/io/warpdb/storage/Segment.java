package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.StringEntriesSource;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * An immutable row group of one table: a column chunk per column plus its zone map. Versions
 * hold references to the segments they contain; the last release frees the data (the encoded
 * chunks in memory, or the file) and its cached decoded chunks.
 */
abstract class Segment extends RefCounted {
    private final long id;
    private final String table;
    private final int rowCount;
    private final List<ZoneMap> zoneMaps;

    /**
     * @param id    unique within the catalog and below 2^31, so that row ids
     *              ({@code id << 32 | row}) stay positive
     * @param table the owning table's name, for messages
     */
    Segment(long id, String table, int rowCount, List<ZoneMap> zoneMaps) {
        this.id = id;
        this.table = table;
        this.rowCount = rowCount;
        this.zoneMaps = List.copyOf(zoneMaps);
    }

    final long id() {
        return id;
    }

    final String table() {
        return table;
    }

    final int rowCount() {
        return rowCount;
    }

    final List<ZoneMap> zoneMaps() {
        return zoneMaps;
    }

    /** False when the zone maps prove that no row satisfies all of {@code predicates}. */
    final boolean mayMatch(List<ColumnPredicate> predicates, Schema schema) {
        for (ColumnPredicate p : predicates) {
            if (p.column() >= 0 && p.column() < zoneMaps.size()
                    && !zoneMaps.get(p.column()).mayMatch(p, schema.type(p.column()), rowCount)) {
                return false;
            }
        }
        return true;
    }

    /**
     * All rows of the given columns, charged to {@code allocator}. Buffers are shared with the
     * segment (or the cache), not copied; Arrow's reference counts keep them valid for the
     * caller whatever happens to the segment afterwards.
     */
    final Batch read(Schema tableSchema, List<Integer> columns, BufferAllocator allocator) {
        if (!tryRetain()) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "segment " + id + " of table " + table
                    + " was removed by a later commit while a query read it; read through Catalog.snapshot()");
        }
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        List<StringDictionary> dictionaries = new ArrayList<>(columns.size());
        try {
            for (int c : columns) {
                DecodedColumn column = readColumn(c, allocator);
                vectors.add(column.vector());
                dictionaries.add(column.dictionary());
            }
            return new Batch(tableSchema.select(columns), vectors, dictionaries, rowCount);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        } finally {
            release();
        }
    }

    /**
     * Column {@code c}, shared into {@code allocator} (the caller owns the vector), with its
     * dictionary: decoded on first use into the chunk cache and shared from there.
     */
    private DecodedColumn readColumn(int c, BufferAllocator allocator) {
        ChunkCache.Entry entry = cache().acquire(new ChunkCache.Key(id, c), cacheAllocator -> decode(c, cacheAllocator));
        try {
            DecodedColumn cached = entry.column();
            return new DecodedColumn(slice(cached.vector(), 0, rowCount, allocator), cached.dictionary());
        } finally {
            entry.release();
        }
    }

    /** The cache that holds this segment's decoded chunks. */
    protected abstract ChunkCache cache();

    /** Where column {@code c}'s string dictionary comes from when its chunk is read: the cache's, once parsed. */
    protected final StringEntriesSource strings(int c) {
        ChunkCache.Key key = new ChunkCache.Key(id, c);
        return parse -> cache().dictionary(key, parse);
    }

    /** Column {@code c}'s chunk decoded into {@code allocator}, owned by the caller. */
    protected abstract DecodedColumn decode(int c, BufferAllocator allocator);

    /** Column {@code c}'s chunk as stored, described for decoders outside storage (the GPU's). */
    abstract EncodedColumnChunk encodedChunk(int c);

    /** Encoded size of a column chunk, the same in memory and in a file. */
    abstract long bytes(int column);

    /** Bytes this segment holds on the host beyond the shared chunk cache: its chunks in memory, nothing for a file. */
    abstract long residentBytes();

    /** How a column chunk is encoded: the codec's scheme. */
    abstract String encoding(int column);

    /** Rows [from, from + count) of {@code v}, sharing its buffers, charged to {@code allocator}. */
    static FieldVector slice(FieldVector v, int from, int count, BufferAllocator allocator) {
        TransferPair pair = v.getTransferPair(allocator);
        pair.splitAndTransfer(from, count);
        return (FieldVector) pair.getTo();
    }

    @Override
    public String toString() {
        return "segment " + id + " of table " + table;
    }
}
