package io.warpdb.ingest;

import java.util.ArrayDeque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * Runs tasks on a pool and hands their results back in task order: tasks {@code 0..count-1},
 * or tasks taken one by one from a source (e.g. a file cut into chunks as it is read). At most
 * {@code window} results are computed ahead of the consumer, which bounds memory while keeping
 * the pool busy; the order makes loaded tables and written files independent of scheduling.
 * Closing early waits for the tasks in flight (tasks not yet started then do nothing) and
 * disposes of their results, so nothing a task allocated is left behind.
 */
public final class OrderedParallel<T> implements AutoCloseable {
    private final ExecutorService pool;
    private final int window;
    /** The next task, or null when there are no more; called on the consumer's thread only. */
    private final Supplier<Callable<T>> tasks;
    private final Consumer<T> dispose;
    private final ArrayDeque<Future<T>> inFlight = new ArrayDeque<>();
    private volatile boolean closed;
    private boolean exhausted;

    public OrderedParallel(ExecutorService pool, int count, int window, IntFunction<T> task, Consumer<T> dispose) {
        this(pool, window, numbered(count, task), dispose);
    }

    /** Tasks from {@code tasks} until it returns null; a task it fails to make fails {@link #next()}. */
    public OrderedParallel(ExecutorService pool, int window, Supplier<Callable<T>> tasks, Consumer<T> dispose) {
        this.pool = pool;
        this.window = Math.max(1, window);
        this.tasks = tasks;
        this.dispose = dispose;
        submitMore();
    }

    private static <T> Supplier<Callable<T>> numbered(int count, IntFunction<T> task) {
        int[] next = {0};
        return () -> {
            if (next[0] >= count) {
                return null;
            }
            int i = next[0]++;
            return () -> task.apply(i);
        };
    }

    /** A pool of daemon threads named after the work, so a stuck load never keeps the JVM alive. */
    public static ExecutorService pool(int threads, String name) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public boolean hasNext() {
        return !inFlight.isEmpty();
    }

    /** The next result in task order; a task's exception is rethrown here. */
    public T next() {
        Future<T> next = inFlight.remove();
        try {
            submitMore();
        } catch (RuntimeException e) {
            inFlight.addFirst(next); // close() disposes of its result
            throw e;
        }
        try {
            return next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            inFlight.addFirst(next); // close() still has to wait for it and dispose of its result
            throw new IllegalStateException("interrupted while waiting for a part", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    private void submitMore() {
        while (!closed && !exhausted && inFlight.size() < window) {
            Callable<T> task = tasks.get();
            if (task == null) {
                exhausted = true;
            } else {
                inFlight.add(pool.submit(() -> closed ? null : task.call()));
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        boolean interrupted = false;
        while (!inFlight.isEmpty()) {
            Future<T> f = inFlight.peek();
            try {
                T result = f.get();
                if (result != null) {
                    dispose.accept(result);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                continue; // the task still runs and its result must still be disposed of
            } catch (ExecutionException e) {
                // The task failed; it holds nothing, and whoever closes early is already failing or done.
            }
            inFlight.remove();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
