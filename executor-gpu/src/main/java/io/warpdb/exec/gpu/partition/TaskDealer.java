package io.warpdb.exec.gpu.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Deals tasks over lanes: each lane is a thread with a work of its own (on the GPU, one stream of
 * one device with its share of the device budget) that takes the next undealt task until none is
 * left, so faster lanes take more and every device stays busy (seed 002: "each GPU takes one chunk
 * at a time"). Lanes come in the order the caller lists them, so a caller that alternates devices
 * (lane i on device i mod D) spreads even a few tasks over all devices. Results come back in task
 * order; a failing task stops the others from starting more, the results made so far are closed
 * and the failure is rethrown. Counts the tasks each device ran. Nothing here touches a device,
 * so the dealing is tested without one.
 *
 * @param <W> what a lane's tasks run on
 */
public final class TaskDealer<W> {
    /** One lane: the device it runs on, and how it opens and finishes its work, on its own thread. */
    public interface Lane<W> {
        /** The device's name in reports (e.g. {@code gpu1}). */
        String device();

        /** The lane's work, opened on the lane's thread before its first task. */
        W open();

        /** Called on the lane's thread after its last task, failed or not: waits for the work, takes its counters, closes it. */
        void finish(W work);
    }

    /** One task; its result is owned by whoever receives it. */
    @FunctionalInterface
    public interface Job<W, T extends AutoCloseable> {
        T run(W work);
    }

    private final List<Lane<W>> lanes;
    private final Map<String, Integer> tasksPerDevice = new LinkedHashMap<>();

    public TaskDealer(List<? extends Lane<W>> lanes) {
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("tasks need at least one lane");
        }
        this.lanes = List.copyOf(lanes);
        for (Lane<W> lane : this.lanes) {
            tasksPerDevice.putIfAbsent(lane.device(), 0);
        }
    }

    /** Runs the tasks on up to one thread per lane and returns their results in task order (owned by the caller). */
    public <T extends AutoCloseable> List<T> run(List<? extends Job<W, T>> tasks) {
        AutoCloseable[] results = new AutoCloseable[tasks.size()];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int workers = Math.max(1, Math.min(lanes.size(), tasks.size()));
        ExecutorService threads = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "warpdb-gpu-lane");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                Lane<W> lane = lanes.get(w);
                running.add(threads.submit(() -> work(lane, tasks, results, next, failure)));
            }
            for (Future<?> f : running) {
                await(f, failure);
            }
        } finally {
            threads.shutdownNow();
        }
        Throwable failed = failure.get();
        if (failed != null) {
            closeAll(Arrays.asList(results), failed);
            if (failed instanceof RuntimeException e) {
                throw e;
            }
            if (failed instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(failed);
        }
        List<T> out = new ArrayList<>(results.length);
        for (AutoCloseable r : results) {
            @SuppressWarnings("unchecked")
            T t = (T) r;
            out.add(t);
        }
        return out;
    }

    private <T extends AutoCloseable> void work(Lane<W> lane, List<? extends Job<W, T>> tasks, AutoCloseable[] results,
            AtomicInteger next, AtomicReference<Throwable> failure) {
        int ran = 0;
        try {
            W work = lane.open();
            try {
                for (int i = next.getAndIncrement(); i < tasks.size() && failure.get() == null; i = next.getAndIncrement()) {
                    results[i] = tasks.get(i).run(work);
                    ran++;
                }
            } finally {
                lane.finish(work);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            synchronized (tasksPerDevice) {
                tasksPerDevice.merge(lane.device(), ran, Integer::sum);
            }
        }
    }

    private static void await(Future<?> f, AtomicReference<Throwable> failure) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure.compareAndSet(null, e);
        } catch (ExecutionException e) {
            failure.compareAndSet(null, e.getCause());
        }
    }

    private static void closeAll(List<AutoCloseable> results, Throwable failure) {
        for (AutoCloseable r : results) {
            if (r != null) {
                try {
                    r.close();
                } catch (Exception e) {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /** The tasks each device has run so far, over all calls of {@link #run}. */
    public DeviceTally tally() {
        synchronized (tasksPerDevice) {
            return new DeviceTally(tasksPerDevice);
        }
    }
}
