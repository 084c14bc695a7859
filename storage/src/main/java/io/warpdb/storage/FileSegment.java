package io.warpdb.storage;

import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.DecodedColumn;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A segment stored in a file of a durable catalog. Columns are decoded on first use into the
 * chunk cache and shared from there; the file is deleted once no version contains the segment.
 */
final class FileSegment extends Segment {
    private final DurableStore store;
    private final List<DataType> types;
    private final List<ChunkLocation> chunks;

    FileSegment(DurableStore store, long id, String table, int rowCount, List<ZoneMap> zoneMaps, List<DataType> types,
            List<ChunkLocation> chunks) {
        super(id, table, rowCount, zoneMaps);
        this.store = store;
        this.types = List.copyOf(types);
        this.chunks = List.copyOf(chunks);
    }

    List<ChunkLocation> chunks() {
        return chunks;
    }

    @Override
    protected ChunkCache cache() {
        return store.cache();
    }

    @Override
    protected DecodedColumn decode(int c, BufferAllocator allocator) {
        return SegmentReader.read(store.directory(), id(), table(), chunks.get(c), types.get(c), strings(c), allocator);
    }

    /** Read from the file, not the decoded-chunk cache. */
    @Override
    EncodedColumnChunk encodedChunk(int c) {
        return SegmentReader.describe(store.directory(), id(), table(), chunks.get(c), types.get(c), strings(c));
    }

    @Override
    long bytes(int column) {
        return chunks.get(column).length();
    }

    /** Nothing: the chunks stay in the file until read (decoded ones are the cache's). */
    @Override
    long residentBytes() {
        return 0;
    }

    @Override
    String encoding(int column) {
        return chunks.get(column).encoding();
    }

    @Override
    protected void free() {
        store.discard(this, types.size());
    }
}
