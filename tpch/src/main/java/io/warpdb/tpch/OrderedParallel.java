package io.warpdb.tpch;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Runs tasks {@code 0..count-1} on a pool and hands their results back in task order. At most
 * {@code window} results are computed ahead of the consumer, which bounds memory while keeping
 * the pool busy; the order makes loaded tables and written files independent of scheduling.
 * Closing early waits for the tasks in flight (tasks not yet started then do nothing) and
 * disposes of their results, so nothing a task allocated is left behind.
 */
final class OrderedParallel<T> implements AutoCloseable {
    private final ExecutorService pool;
    private final int count;
    private final int window;
    private final IntFunction<T> task;
    private final Consumer<T> dispose;
    private final ArrayDeque<Future<T>> inFlight = new ArrayDeque<>();
    private volatile boolean closed;
    private int submitted;

    OrderedParallel(ExecutorService pool, int count, int window, IntFunction<T> task, Consumer<T> dispose) {
        this.pool = pool;
        this.count = count;
        this.window = Math.max(1, window);
        this.task = task;
        this.dispose = dispose;
        submitMore();
    }

    /** A pool of daemon threads named after the work, so a stuck load never keeps the JVM alive. */
    static ExecutorService pool(int threads, String name) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    boolean hasNext() {
        return !inFlight.isEmpty();
    }

    /** The next result in task order; a task's exception is rethrown here. */
    T next() {
        Future<T> next = inFlight.remove();
        submitMore();
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
        while (!closed && submitted < count && inFlight.size() < window) {
            int i = submitted++;
            inFlight.add(pool.submit(() -> closed ? null : task.apply(i)));
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
