package io.warpdb.exec.gpu.partition;

import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The 3-stream pipeline of seed 002 section 3.2.4, on every device the executor uses: tasks (a
 * chunk to partition or sort, a partition pair to join, a block to join) are dealt by a
 * {@link TaskDealer} over {@code streams} lanes per device, each with its own stream and its own
 * share of that device's budget, and each doing the whole copy in, compute, copy out of its task;
 * so one lane's copies overlap another's kernels and the copy engines and SMs of every device stay
 * busy. Lanes alternate devices, so a few tasks still spread over all of them. Bytes moved and
 * kernel time are summed over the lanes; {@link #tally()} says which device ran how many tasks.
 */
public final class StreamPipeline implements TaskRunner {
    private final long streamBudget;
    private final TaskDealer<DeviceWork> dealer;
    private final LongAdder bytesToDevice = new LongAdder();
    private final LongAdder bytesToHost = new LongAdder();
    private final LongAdder kernelNanos = new LongAdder();

    /** {@code streams} lanes on each of {@code devices}, each lane holding at most {@code streamBudget} bytes of its device. */
    public StreamPipeline(List<CudaDevice> devices, long streamBudget, int streams) {
        this.streamBudget = streamBudget;
        List<TaskDealer.Lane<DeviceWork>> lanes = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            for (CudaDevice device : devices) {
                lanes.add(new StreamLane(device));
            }
        }
        this.dealer = new TaskDealer<>(lanes);
    }

    /** One stream of one device: binds the device's context on the lane's thread and works within a stream's share. */
    private final class StreamLane implements TaskDealer.Lane<DeviceWork> {
        private final CudaDevice device;

        StreamLane(CudaDevice device) {
            this.device = device;
        }

        @Override
        public String device() {
            return device.label();
        }

        @Override
        public DeviceWork open() {
            device.bind();
            return new DeviceWork(device, new DeviceBudget(streamBudget));
        }

        @Override
        public void finish(DeviceWork work) {
            try (work) {
                work.synchronize();
                kernelNanos.add(work.kernelNanos());
            } finally {
                bytesToDevice.add(work.bytesToDevice());
                bytesToHost.add(work.bytesToHost());
            }
        }
    }

    @Override
    public <T extends AutoCloseable> List<T> run(List<? extends TaskRunner.Task<T>> tasks) {
        return dealer.run(tasks);
    }

    /** The tasks each device has run so far. */
    public DeviceTally tally() {
        return dealer.tally();
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
