package io.warpdb.exec.gpu.column;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.warpdb.exec.gpu.runtime.DevicePool;

/**
 * Table columns kept in device memory between queries, so that repeated queries do not copy
 * their inputs again: keyed by the table's data version and column, weighed by the device bytes
 * they hold (in KiB, rounded up), bounded to a share of the pool ({@code warpdb.gpu.cache.fraction},
 * default 0.5). Evicting a column drops the cache's reference; the memory is freed when no running
 * query still uses it. The pool calls {@link #evictAll()} before it gives up on an allocation.
 */
public final class DeviceColumnCache {
    public static final String FRACTION_PROPERTY = "warpdb.gpu.cache.fraction";

    /** One column of one table version. */
    public record Key(Object dataVersion, int column) {
    }

    private final Cache<Key, DeviceColumn> columns;

    public DeviceColumnCache(DevicePool pool) {
        double fraction = Double.parseDouble(System.getProperty(FRACTION_PROPERTY, "0.5"));
        this.columns = Caffeine.newBuilder()
                .maximumWeight((long) (pool.capacity() * fraction) >> 10)
                .weigher((Key k, DeviceColumn c) -> kibibytes(c.bytes()))
                // Removal runs on the caller's thread so that evicted memory is back in the pool at once.
                .executor(Runnable::run)
                .removalListener((Key k, DeviceColumn c, RemovalCause cause) -> {
                    if (c != null) {
                        c.close();
                    }
                })
                .build();
        pool.addEvictionHook(this::evictAll);
    }

    /** The weight of a column of {@code bytes}: the same unit as the maximum weight. */
    static int kibibytes(long bytes) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (bytes + 1023) >> 10));
    }

    /** A new reference to the cached column (the caller closes it), or null. */
    public DeviceColumn get(Key key) {
        DeviceColumn c = columns.getIfPresent(key);
        return c == null ? null : c.tryShare();
    }

    /** Caches {@code column} (taking a reference of its own) and returns it. */
    public DeviceColumn put(Key key, DeviceColumn column) {
        columns.put(key, column.share());
        return column;
    }

    /** Drops every cached column; true when there was any. */
    public boolean evictAll() {
        boolean any = columns.estimatedSize() > 0;
        columns.invalidateAll();
        columns.cleanUp();
        return any;
    }
}
