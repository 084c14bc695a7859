package io.warpdb.exec.cpu;

import java.util.function.IntConsumer;

/**
 * Runs tasks 0 .. count - 1 at once and returns when all are done: the executor's worker threads,
 * as the parallel parts of sorting and hashing (which know nothing of operators) receive them.
 */
@FunctionalInterface
public interface TaskRunner {
    void runAll(int count, IntConsumer task);
}
