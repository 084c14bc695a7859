package io.warpdb.exec.gpu.aggregate;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;

/** The groups a grouping path found: each row's group number, one representative row per group. */
public record Groups(DeviceBuffer groupOfRow, DeviceBuffer representatives, int count) implements AutoCloseable {
    @Override
    public void close() {
        groupOfRow.close();
        representatives.close();
    }
}
