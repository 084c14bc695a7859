package io.warpdb.storage;

import io.warpdb.core.exec.HostMemory;
import io.warpdb.storage.encoding.EncodedChunk;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The store of an in-memory catalog: segments keep their encoded chunks off the heap, in
 * {@link HostMemory#resident()} (page-locked where a GPU will copy them), decoded on use into a
 * {@link ChunkCache} as a durable store's are; commits only swap pointers.
 */
final class MemoryStore implements Store {
    private final BufferAllocator allocator;
    private final ChunkCache cache;
    private final HostMemory memory = HostMemory.resident();

    /** Segments' chunks are charged to {@code allocator}, which must outlive the segments (the catalog's). */
    MemoryStore(BufferAllocator allocator, StorageOptions options) {
        this.allocator = allocator;
        this.cache = new ChunkCache(allocator, options.cacheBytes());
    }

    /** Moves the built chunks into one buffer of resident memory, owned by the new segment. */
    @Override
    public Segment persist(BuiltSegment built) {
        long bytes = 0;
        for (EncodedChunk chunk : built.chunks()) {
            bytes += chunk.bytes().length;
        }
        ArrowBuf chunks = memory.allocate(allocator, bytes);
        try {
            long at = 0;
            for (EncodedChunk chunk : built.chunks()) {
                chunks.setBytes(at, chunk.bytes());
                at += chunk.bytes().length;
            }
            return new MemorySegment(cache, built, chunks);
        } catch (RuntimeException e) {
            chunks.close();
            throw e;
        }
    }

    @Override
    public DeleteVector persistDeletes(long id, RoaringBitmap rows) {
        return new DeleteVector(rows, 0, () -> { });
    }

    @Override
    public void commit(Manifest next) {
        // Nothing to write: the new version lives in memory only.
    }

    @Override
    public CacheStats cacheStats() {
        return cache.stats();
    }

    @Override
    public void close() {
        cache.close();
    }
}
