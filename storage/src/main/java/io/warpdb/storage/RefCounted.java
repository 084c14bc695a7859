package io.warpdb.storage;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Shared ownership of something freed exactly once, when its last owner lets go. The creator
 * holds the first reference. Readers that may race with the last release use
 * {@link #tryRetain()}, which fails instead of reviving a freed object.
 */
abstract class RefCounted {
    private final AtomicInteger refs = new AtomicInteger(1);

    final boolean tryRetain() {
        for (int n = refs.get(); n > 0; n = refs.get()) {
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    final void retain() {
        if (!tryRetain()) {
            throw new IllegalStateException(this + " was already freed");
        }
    }

    final void release() {
        int n = refs.decrementAndGet();
        if (n == 0) {
            free();
        } else if (n < 0) {
            throw new IllegalStateException(this + " was released more often than retained");
        }
    }

    /** Frees the resource; called once, by the thread that dropped the last reference. */
    protected abstract void free();
}
