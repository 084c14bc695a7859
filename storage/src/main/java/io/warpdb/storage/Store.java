package io.warpdb.storage;

import org.roaringbitmap.RoaringBitmap;

/**
 * Where a catalog keeps its data: {@link MemoryStore} (nothing survives the process) or
 * {@link DurableStore} (a data directory). Catalog, tables and scans are the same for both.
 */
interface Store extends AutoCloseable {
    /**
     * Makes a freshly built segment storable in a manifest: memory stores keep its encoded
     * chunks, durable stores write its file. The caller owns the returned segment's reference.
     */
    Segment persist(BuiltSegment built);

    /** A delete vector for the given rows (durable: written to file {@code id}); the caller owns it. */
    DeleteVector persistDeletes(long id, RoaringBitmap rows);

    /** Makes {@code next} the committed state (durable: the manifest on disk); nothing changes when it throws. */
    void commit(Manifest next);

    CacheStats cacheStats();

    /** Stops deleting files and releases the cache and the directory lock. */
    @Override
    void close();
}
