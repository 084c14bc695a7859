package io.warpdb.storage;

import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * The store of an in-memory catalog: segments keep their encoded chunks on the heap, decoded on
 * use into a {@link ChunkCache} as a durable store's are; commits only swap pointers.
 */
final class MemoryStore implements Store {
    private final ChunkCache cache;

    MemoryStore(BufferAllocator allocator, StorageOptions options) {
        this.cache = new ChunkCache(allocator, options.cacheBytes());
    }

    @Override
    public Segment persist(BuiltSegment built) {
        return new MemorySegment(cache, built);
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
