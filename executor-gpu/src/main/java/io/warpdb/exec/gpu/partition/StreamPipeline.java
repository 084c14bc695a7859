package io.warpdb.exec.gpu.partition;

import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The 3-stream pipeline of seed 002 section 3.2.4: tasks (a chunk to partition, a partition pair
 * to join) run on {@code streams} workers, each with its own stream and its own share of the
 * device budget, and each doing the whole copy in, compute, copy out of its task; so one worker's
 * copies overlap another's kernels and the copy engines and SMs stay busy. Results come back in
 * task order; a failing task stops the others from starting more, the results made so far are
 * closed and the failure is rethrown. Bytes moved and kernel time are summed over the workers.
 */
public final class StreamPipeline implements TaskRunner {
    private final CudaDevice device;
    private final long streamBudget;
    private final int streams;
    private final LongAdder bytesToDevice = new LongAdder();
    private final LongAdder bytesToHost = new LongAdder();
    private final LongAdder kernelNanos = new LongAdder();

    public StreamPipeline(CudaDevice device, long streamBudget, int streams) {
        this.device = device;
        this.streamBudget = streamBudget;
        this.streams = streams;
    }

    @Override
    public <T extends AutoCloseable> List<T> run(List<? extends TaskRunner.Task<T>> tasks) {
        AutoCloseable[] results = new AutoCloseable[tasks.size()];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int workers = Math.max(1, Math.min(streams, tasks.size()));
        ExecutorService threads = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "warpdb-gpu-stream");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                running.add(threads.submit(() -> work(tasks, results, next, failure)));
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

    private <T extends AutoCloseable> void work(List<? extends TaskRunner.Task<T>> tasks, AutoCloseable[] results, AtomicInteger next,
            AtomicReference<Throwable> failure) {
        device.bind();
        try (DeviceWork work = new DeviceWork(device, new DeviceBudget(streamBudget))) {
            try {
                for (int i = next.getAndIncrement(); i < tasks.size() && failure.get() == null; i = next.getAndIncrement()) {
                    results[i] = tasks.get(i).run(work);
                }
            } finally {
                work.synchronize();
                bytesToDevice.add(work.bytesToDevice());
                bytesToHost.add(work.bytesToHost());
                kernelNanos.add(work.kernelNanos());
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
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

    public long streamBudget() {
        return streamBudget;
    }

    public long bytesToDevice() {
        return bytesToDevice.sum();
    }

    public long bytesToHost() {
        return bytesToHost.sum();
    }

    public long kernelNanos() {
        return kernelNanos.sum();
    }
}
