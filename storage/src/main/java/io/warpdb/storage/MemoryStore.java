package io.warpdb.storage;

import io.warpdb.core.types.Schema;
import org.roaringbitmap.RoaringBitmap;

/** The store of an in-memory catalog: segments stay Arrow vectors, commits only swap pointers. */
final class MemoryStore implements Store {
    @Override
    public Segment persist(MemorySegment built, Schema schema) {
        return built;
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
        return new CacheStats(0, 0, 0, 0, 0);
    }

    @Override
    public void close() {
        // Segments free their memory when the catalog releases its versions.
    }
}
