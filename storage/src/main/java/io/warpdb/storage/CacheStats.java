package io.warpdb.storage;

/**
 * Counters of the decoded-chunk cache since the catalog opened (all zero for an in-memory
 * catalog, which has no cache).
 *
 * @param hits          chunk reads served from the cache
 * @param misses        chunk reads that decoded the chunk from its file
 * @param evictions     chunks dropped to stay within the capacity
 * @param bytes         bytes (Arrow buffers plus an estimate of string dictionaries) cached now
 * @param capacityBytes the configured capacity
 */
public record CacheStats(long hits, long misses, long evictions, long bytes, long capacityBytes) {
}
