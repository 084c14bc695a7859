package io.warpdb.storage;

import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.types.DataType;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.EncodedChunk;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A segment of an in-memory catalog: its column chunks stay encoded on the heap, exactly as a
 * durable catalog writes them to a file, and are decoded on use into the catalog's chunk cache.
 */
final class MemorySegment extends Segment {
    private final ChunkCache cache;
    private final List<DataType> types;
    private final List<EncodedChunk> chunks;

    MemorySegment(ChunkCache cache, BuiltSegment built) {
        super(built.id(), built.table(), built.rowCount(), built.zoneMaps());
        this.cache = cache;
        this.types = built.types();
        this.chunks = built.chunks();
    }

    @Override
    protected ChunkCache cache() {
        return cache;
    }

    @Override
    protected DecodedColumn decode(int c, BufferAllocator allocator) {
        return ChunkCodec.decode(ByteBuffer.wrap(chunks.get(c).bytes()), types.get(c), "", allocator, strings(c));
    }

    @Override
    EncodedColumnChunk encodedChunk(int c) {
        return ChunkCodec.describe(ByteBuffer.wrap(chunks.get(c).bytes()), types.get(c), strings(c));
    }

    @Override
    long bytes(int column) {
        return chunks.get(column).bytes().length;
    }

    @Override
    long residentBytes() {
        return chunks.stream().mapToLong(chunk -> chunk.bytes().length).sum();
    }

    @Override
    String encoding(int column) {
        return chunks.get(column).description();
    }

    @Override
    protected void free() {
        cache.invalidate(id(), types.size());
    }
}
