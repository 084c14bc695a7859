package io.warpdb.exec.gpu.join;

import io.warpdb.exec.gpu.runtime.DeviceBuffer;

/**
 * What a join algorithm finds: output row i pairs left row {@code leftRows[i]} with right row
 * {@code rightRows[i]} (int32 row ids in device memory). A negative id stands for the NULL side
 * of an outer join; {@code rightRows} is null when only left rows are output (SEMI, ANTI).
 */
public record JoinPairs(DeviceBuffer leftRows, DeviceBuffer rightRows, int count) implements AutoCloseable {
    @Override
    public void close() {
        if (leftRows != null) {
            leftRows.close();
        }
        if (rightRows != null) {
            rightRows.close();
        }
    }
}
