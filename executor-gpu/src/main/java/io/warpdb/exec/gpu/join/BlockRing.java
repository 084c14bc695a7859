package io.warpdb.exec.gpu.join;

import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.partition.DeviceTally;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.runtime.CudaDevice;
import io.warpdb.exec.gpu.runtime.DeviceBudget;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ring exchange of seed 002 section 3.1 for the block nested-loop join on D devices: each
 * device takes one left block (blocks i, i + D, ... on device i), and the right blocks go round in
 * stages of D: every device copies one right block in from host memory, joins its left block with
 * it, then passes it to the next device ({@code (i + 1) % D}) peer to peer, D - 1 times, so each
 * right block crosses the host link once per stage instead of once per device. The devices move in
 * step (a barrier before each pass, one after), one worker thread per device; a worker that fails
 * leaves the barrier and the others stop at their next one.
 */
final class BlockRing {
    private final List<CudaDevice> devices;
    private final long deviceBudget;
    private final LongAdder bytesToDevice = new LongAdder();
    private final LongAdder bytesToHost = new LongAdder();
    private final LongAdder bytesBetweenDevices = new LongAdder();
    private final LongAdder kernelNanos = new LongAdder();
    private final Map<String, Integer> leftBlocksPerDevice = new LinkedHashMap<>();

    /** A ring over {@code devices}, each device's worker holding at most {@code deviceBudget} bytes. */
    BlockRing(List<CudaDevice> devices, long deviceBudget) {
        this.devices = List.copyOf(devices);
        this.deviceBudget = deviceBudget;
    }

    /** The rows each left block makes with all right blocks ({@code join}'s {@link BlockNestedLoopJoin.LeftBlockRows}), in left block order. */
    List<HostTable> run(BlockNestedLoopJoin join, List<HostTable> leftBlocks, List<HostTable> rightBlocks) {
        int d = devices.size();
        HostTable[] results = new HostTable[leftBlocks.size()];
        DeviceTable[] held = new DeviceTable[d];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Barrier barrier = new Barrier(new Phaser(d), failure);
        List<Thread> workers = new ArrayList<>();
        for (int lane = 0; lane < d; lane++) {
            int self = lane;
            Thread worker = new Thread(() -> {
                try {
                    work(self, join, leftBlocks, rightBlocks, held, results, barrier);
                } catch (Stopped e) {
                    // another worker failed
                } catch (Throwable e) {
                    if (!failure.compareAndSet(null, e)) {
                        failure.get().addSuppressed(e);
                    }
                } finally {
                    barrier.phaser().arriveAndDeregister();
                }
            }, "warpdb-block-ring-" + devices.get(lane).label());
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, e);
            }
        }
        if (failure.get() != null) {
            for (HostTable result : results) {
                if (result != null) {
                    result.close();
                }
            }
            Throwable e = failure.get();
            throw e instanceof RuntimeException r ? r : new IllegalStateException("block ring failed", e);
        }
        return List.of(results);
    }

    private void work(int self, BlockNestedLoopJoin join, List<HostTable> leftBlocks, List<HostTable> rightBlocks, DeviceTable[] held,
            HostTable[] results, Barrier barrier) {
        int d = devices.size();
        int previous = (self + d - 1) % d;
        CudaDevice device = devices.get(self);
        device.bind();
        int ran = 0;
        try (DeviceWork work = new DeviceWork(device, new DeviceBudget(deviceBudget))) {
            try {
                for (int group = 0; group * d < leftBlocks.size(); group++) {
                    int i = group * d + self;
                    try (BlockNestedLoopJoin.LeftBlockRows rows = i < leftBlocks.size() ? join.new LeftBlockRows(leftBlocks.get(i)) : null) {
                        for (int stage = 0; stage * d < rightBlocks.size(); stage++) {
                            int j = stage * d + self;
                            held[self] = j < rightBlocks.size() ? join.upload(rightBlocks.get(j), work) : null;
                            for (int pass = 0; pass < d; pass++) {
                                if (rows != null && held[self] != null) {
                                    rows.meet(held[self], work);
                                }
                                work.synchronize();
                                barrier.await();  // every device is done with the block it holds
                                if (pass == d - 1) {
                                    break;
                                }
                                DeviceTable received = held[previous] == null ? null
                                        : copyFrom(held[previous], devices.get(previous), work);
                                work.synchronize();
                                barrier.await();  // every block has reached its next device: the senders' copies may go
                                if (held[self] != null) {
                                    held[self].close();
                                }
                                held[self] = received;
                            }
                            if (held[self] != null) {
                                held[self].close();
                                held[self] = null;
                            }
                        }
                        if (rows != null) {
                            results[i] = rows.finish(work);
                            ran++;
                        }
                    }
                }
            } finally {
                if (held[self] != null) {
                    held[self].close();
                    held[self] = null;
                }
                work.synchronize();
                kernelNanos.add(work.kernelNanos());
                bytesToDevice.add(work.bytesToDevice());
                bytesToHost.add(work.bytesToHost());
                synchronized (leftBlocksPerDevice) {
                    leftBlocksPerDevice.merge(device.label(), ran, Integer::sum);
                }
            }
        }
    }

    /** The workers' step barrier: waits for every worker still in the ring, then stops this one if another failed. */
    private record Barrier(Phaser phaser, AtomicReference<Throwable> failure) {
        void await() {
            phaser.arriveAndAwaitAdvance();
            if (failure.get() != null) {
                throw new Stopped();
            }
        }
    }

    /** Thrown in a worker whose ring another worker's failure stopped. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    /** {@code table}, in memory of {@code from}, copied to the device of {@code work}. */
    private DeviceTable copyFrom(DeviceTable table, CudaDevice from, DeviceWork work) {
        List<DeviceColumn> columns = new ArrayList<>();
        try {
            for (DeviceColumn c : table.columns()) {
                DeviceBuffer values = copyFrom(c.values(), from, work);
                DeviceBuffer validity = null;
                try {
                    validity = c.validity() == null ? null : copyFrom(c.validity(), from, work);
                } catch (RuntimeException e) {
                    values.close();
                    throw e;
                }
                columns.add(new DeviceColumn(c.type(), c.rows(), values, validity, c.dictionary()));
            }
            return new DeviceTable(table.schema(), table.rows(), columns);
        } catch (RuntimeException e) {
            columns.forEach(DeviceColumn::close);
            throw e;
        }
    }

    private DeviceBuffer copyFrom(DeviceBuffer source, CudaDevice from, DeviceWork work) {
        DeviceBuffer copy = work.allocate(source.bytes(), "ring block");
        copy.copyFromPeer(source, from, work.device(), work.stream());
        bytesBetweenDevices.add(source.bytes());
        return copy;
    }

    long bytesToDevice() {
        return bytesToDevice.sum();
    }

    long bytesToHost() {
        return bytesToHost.sum();
    }

    long bytesBetweenDevices() {
        return bytesBetweenDevices.sum();
    }

    long kernelNanos() {
        return kernelNanos.sum();
    }

    /** The left blocks each device joined. */
    DeviceTally tally() {
        synchronized (leftBlocksPerDevice) {
            return new DeviceTally(leftBlocksPerDevice);
        }
    }
}
