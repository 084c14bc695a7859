package io.warpdb.storage;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.warpdb.storage.encoding.DecodedColumn;
import io.warpdb.storage.encoding.StringEntriesSource;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Decoded column chunks of a catalog's segments, kept in Arrow memory of the cache's own allocator
 * and weighed in bytes; and, apart from them, the string dictionaries of chunks, so that reading a
 * chunk again, decoded or as stored (for the GPU), yields the same dictionary instance without
 * parsing its entries again (see {@link io.warpdb.storage.encoding.StringEntriesSource}). A
 * decoded entry is reference counted: the cache holds one reference and each reader one while it shares the buffers into its query allocator, so eviction never frees
 * memory a reader is still transferring; after the transfer, Arrow's own reference counts keep
 * the query's buffers alive.
 */
final class ChunkCache implements AutoCloseable {
    /** A column chunk: segment id and column position. */
    record Key(long segment, int column) {
    }

    /** A decoded chunk; the last release closes its vector. */
    static final class Entry extends RefCounted {
        private final DecodedColumn column;
        private final int weight;

        private Entry(DecodedColumn column) {
            this.column = column;
            this.weight = (int) Math.min(Integer.MAX_VALUE, weigh(column));
        }

        DecodedColumn column() {
            return column;
        }

        @Override
        protected void free() {
            column.close();
        }
    }

    private final BufferAllocator allocator;
    private final long capacityBytes;
    private final Cache<Key, Entry> cache;
    private final Cache<Key, StringEntriesSource.Entries> dictionaries;

    /**
     * @param capacityBytes the budget of both: a quarter for the chunks' dictionaries (heap), the
     *                      rest for the decoded chunks (Arrow memory and their dictionaries)
     */
    ChunkCache(BufferAllocator parent, long capacityBytes) {
        this.allocator = parent.newChildAllocator("chunk-cache", 0, Long.MAX_VALUE);
        long dictionaryBytes = capacityBytes / 4;
        this.capacityBytes = capacityBytes;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(capacityBytes - dictionaryBytes)
                .weigher((Key k, Entry e) -> e.weight)
                .removalListener((Key k, Entry e, RemovalCause cause) -> {
                    if (e != null) {
                        e.release();
                    }
                })
                // Release on the evicting thread, not later on a pool: memory comes back at once
                // and closing the catalog leaves nothing behind.
                .executor(Runnable::run)
                .recordStats()
                .build();
        this.dictionaries = Caffeine.newBuilder()
                .maximumWeight(dictionaryBytes)
                .weigher((Key k, StringEntriesSource.Entries e) -> (int) Math.min(Integer.MAX_VALUE, e.strings().heapBytes()))
                .executor(Runnable::run)
                .build();
    }

    /** The string dictionary of chunk {@code key}, parsed by {@code parse} unless kept from an earlier read. */
    StringEntriesSource.Entries dictionary(Key key, Supplier<StringEntriesSource.Entries> parse) {
        return dictionaries.get(key, k -> parse.get());
    }

    /**
     * The chunk for {@code key}, decoded by {@code loader} into the cache's allocator on a miss,
     * retained for the caller, who must {@link Entry#release()} it.
     */
    Entry acquire(Key key, Function<BufferAllocator, DecodedColumn> loader) {
        while (true) {
            Entry[] loaded = new Entry[1];
            Entry entry = cache.get(key, k -> {
                Entry e = new Entry(loader.apply(allocator));
                e.retain(); // the caller's reference, taken before eviction can see the entry
                loaded[0] = e;
                return e;
            });
            if (entry == loaded[0] || entry.tryRetain()) {
                return entry;
            }
            // Evicted between lookup and retain: look it up again.
        }
    }

    /** Drops the chunks of a segment that no version uses any more (a no-op once closed). */
    void invalidate(long segment, int columns) {
        for (int c = 0; c < columns; c++) {
            cache.invalidate(new Key(segment, c));
            dictionaries.invalidate(new Key(segment, c));
        }
    }

    CacheStats stats() {
        com.github.benmanes.caffeine.cache.stats.CacheStats s = cache.stats();
        long bytes = cache.policy().eviction().orElseThrow().weightedSize().orElse(0);
        return new CacheStats(s.hitCount(), s.missCount(), s.evictionCount(), bytes, capacityBytes);
    }

    /** Arrow buffer capacity plus a rough heap estimate for the strings of a dictionary. */
    private static long weigh(DecodedColumn column) {
        long bytes = 0;
        for (ArrowBuf buf : column.vector().getFieldBuffers()) {
            bytes += buf.capacity();
        }
        return column.dictionary() == null ? bytes : bytes + column.dictionary().heapBytes();
    }

    @Override
    public void close() {
        cache.invalidateAll();
        cache.cleanUp();
        dictionaries.invalidateAll();
        allocator.close();
    }
}
