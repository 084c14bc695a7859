package io.warpdb.exec.cpu.operator;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * The threads parallel operators run their workers on: a cached pool of daemon threads. It is
 * unbounded on purpose: a worker may itself wait for a nested parallel operator (a join's build
 * side gathered inside a probe worker), which must never queue behind the threads waiting for it.
 */
final class Workers {
    private static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "warpdb-cpu-worker");
        thread.setDaemon(true);
        return thread;
    });

    private Workers() {
    }

    static Future<?> submit(Runnable task) {
        return POOL.submit(task);
    }

    /**
     * Runs {@code task.accept(i)} for i in [0, count): i = 0 on the calling thread, the others on
     * workers. Returns once all have ended; then rethrows the first failure, if any.
     */
    static void runAll(int count, IntConsumer task) {
        List<Future<?>> started = new ArrayList<>(count - 1);
        for (int i = 1; i < count; i++) {
            int index = i;
            started.add(submit(() -> task.accept(index)));
        }
        Throwable failure = null;
        try {
            task.accept(0);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (Future<?> f : started) {
            failure = firstOf(failure, await(f));
        }
        rethrow(failure);
    }

    /** Waits for a task to end, even when interrupted; returns its failure or null. */
    private static Throwable await(Future<?> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    task.get();
                    return null;
                } catch (ExecutionException e) {
                    return e.getCause();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static Throwable firstOf(Throwable first, Throwable next) {
        return first != null ? first : next;
    }

    /** Rethrows a worker's failure on the consumer's thread as it was (SQLSTATEs stay intact). */
    static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw new WarpException(SqlState.INTERNAL_ERROR, "parallel worker failed: " + failure, failure);
        }
    }
}
