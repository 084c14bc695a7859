package io.warpdb.cluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Waiting for the work other threads of a node do for it (senders, openings, hashing, a node's answer). */
final class Futures {
    private Futures() {
    }

    /** {@code future}'s value once done; its failure rethrown as it was thrown when it was unchecked. */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
