package io.warpdb.exec.gpu.partition;

/** An out-of-core operator's rows in host memory (owned) and the report of how they were made. */
public record OutOfCoreResult(HostTable rows, OutOfCoreReport report) implements AutoCloseable {
    @Override
    public void close() {
        rows.close();
    }
}
