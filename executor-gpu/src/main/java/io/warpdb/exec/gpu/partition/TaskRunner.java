package io.warpdb.exec.gpu.partition;

import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/** Runs device tasks: on the streams of a {@link StreamPipeline}, or one after another on one work ({@link #on}). */
public interface TaskRunner {
    /** One unit of work run on a {@link DeviceWork}; its result is owned by whoever receives it. */
    @FunctionalInterface
    interface Task<T extends AutoCloseable> extends TaskDealer.Job<DeviceWork, T> {
    }

    /** Runs the tasks and returns their results in task order (owned by the caller). */
    <T extends AutoCloseable> List<T> run(List<? extends Task<T>> tasks);

    /** Tasks run in order on {@code work} (a task already on a stream that has more to do, e.g. split a skewed partition). */
    static TaskRunner on(DeviceWork work) {
        return new TaskRunner() {
            @Override
            public <T extends AutoCloseable> List<T> run(List<? extends Task<T>> tasks) {
                List<T> results = new ArrayList<>(tasks.size());
                try {
                    for (Task<T> task : tasks) {
                        results.add(task.run(work));
                    }
                    return results;
                } catch (RuntimeException e) {
                    for (T r : results) {
                        try {
                            r.close();
                        } catch (Exception suppressed) {
                            e.addSuppressed(suppressed);
                        }
                    }
                    throw e;
                }
            }
        };
    }
}
