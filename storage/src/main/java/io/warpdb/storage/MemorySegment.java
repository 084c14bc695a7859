package io.warpdb.storage;

import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A segment of an in-memory catalog: its column chunks stay encoded, exactly as a durable catalog
 * writes them to a file, back to back in one off-heap buffer (see {@link MemoryStore}), and are
 * decoded on use into the catalog's chunk cache.
 */
final class MemorySegment extends Segment {
    private final ChunkCache cache;
    private final List<DataType> types;
    private final List<String> descriptions;
    /** The chunks, owned: freed with the segment. */
    private final ArrowBuf chunks;
    /** Column c's chunk is bytes [offsets[c], offsets[c + 1]) of {@link #chunks}. */
    private final long[] offsets;

    /** Takes {@code chunks}, which holds the built segment's chunks back to back. */
    MemorySegment(ChunkCache cache, BuiltSegment built, ArrowBuf chunks) {
        super(built.id(), built.table(), built.rowCount(), built.zoneMaps());
        this.cache = cache;
        this.types = built.types();
        this.descriptions = built.chunks().stream().map(EncodedChunk::description).toList();
        this.chunks = chunks;
        this.offsets = new long[types.size() + 1];
        for (int c = 0; c < types.size(); c++) {
            offsets[c + 1] = offsets[c] + built.chunks().get(c).bytes().length;
        }
    }

    /** Column {@code c}'s chunk, a view of the segment's buffer from its byte 0. */
    private ByteBuffer chunk(int c) {
        return chunks.nioBuffer(offsets[c], (int) bytes(c));
    }

    @Override
    protected ChunkCache cache() {
        return cache;
    }

    @Override
    protected DecodedColumn decode(int c, BufferAllocator allocator) {
        return ChunkCodec.decode(chunk(c), types.get(c), "", allocator, strings(c));
    }

    @Override
    EncodedColumnChunk encodedChunk(int c) {
        return ChunkCodec.describe(chunk(c), types.get(c), strings(c));
    }

    @Override
    long bytes(int column) {
        return offsets[column + 1] - offsets[column];
    }

    @Override
    long residentBytes() {
        return offsets[types.size()];
    }

    @Override
    String encoding(int column) {
        return descriptions.get(column);
    }

    @Override
    protected void free() {
        cache.invalidate(id(), types.size());
        chunks.close();
    }
}
