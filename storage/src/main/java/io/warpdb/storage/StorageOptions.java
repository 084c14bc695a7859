package io.warpdb.storage;

/**
 * Tuning knobs of a catalog.
 *
 * @param cacheBytes    capacity of a catalog's decoded-chunk cache, in bytes of
 *                      Arrow memory (0 disables caching)
 * @param segmentRows   rows per segment (row group); appends are cut into segments of this size
 * @param scanBatchRows largest batch a scan returns; a multiple of 8 keeps boolean vectors
 *                      sliced without copying
 * @param synced        whether a durable catalog syncs its files to the disk before a commit
 *                      counts (false only for scratch databases that no crash must preserve)
 */
public record StorageOptions(long cacheBytes, int segmentRows, int scanBatchRows, boolean synced) {
    public StorageOptions {
        if (cacheBytes < 0 || segmentRows < 1 || scanBatchRows < 1) {
            throw new IllegalArgumentException("invalid storage options: cacheBytes=" + cacheBytes
                    + " segmentRows=" + segmentRows + " scanBatchRows=" + scanBatchRows);
        }
    }

    /**
     * A quarter of the maximum heap for the cache (decoded chunks live off-heap, but the JVM's
     * default direct-memory limit equals the heap limit), million-row segments, 64Ki-row batches.
     */
    public static StorageOptions defaults() {
        return new StorageOptions(Runtime.getRuntime().maxMemory() / 4, 1 << 20, 1 << 16, true);
    }

    public StorageOptions withCacheBytes(long bytes) {
        return new StorageOptions(bytes, segmentRows, scanBatchRows, synced);
    }

    public StorageOptions withSegmentRows(int rows) {
        return new StorageOptions(cacheBytes, rows, scanBatchRows, synced);
    }

    public StorageOptions withScanBatchRows(int rows) {
        return new StorageOptions(cacheBytes, segmentRows, rows, synced);
    }

    /**
     * Files written without syncing them: a crash may lose or tear any commit, which only a
     * scratch database, deleted after use and cleared on restart, can afford; its commits then
     * wait for no disk.
     */
    public StorageOptions unsynced() {
        return new StorageOptions(cacheBytes, segmentRows, scanBatchRows, false);
    }
}
