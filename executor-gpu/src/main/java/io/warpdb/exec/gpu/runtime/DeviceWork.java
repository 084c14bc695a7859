package io.warpdb.exec.gpu.runtime;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What GPU operators use while running one plan node: the device, one stream for kernels, a second
 * one for copies that overlap them ({@link #transfers()}, opened on first use), and the bytes moved
 * between host and device so far (EXPLAIN ANALYZE reports them). Copies to the device go through
 * {@link PinnedStaging}, queued on this work's stream, so small ones (programs, address tables)
 * neither wait for the kernels before them nor copy from pageable memory.
 */
public final class DeviceWork implements AutoCloseable {
    private final CudaDevice device;
    private final GpuStream stream;
    /** What this work's blocks count against besides the pool (null: the pool only). */
    private final DeviceBudget budget;
    private GpuStream transfers;
    private long bytesToDevice;
    private long bytesToHost;
    private long deviceBytesRead;
    private long deviceBytesWritten;
    /** The blocks counted in {@link #deviceBytesRead}, by identity: each counts once, and is not written. */
    private final Set<DeviceBuffer> blocksRead = Collections.newSetFromMap(new IdentityHashMap<>());

    public DeviceWork(CudaDevice device) {
        this(device, null);
    }

    /** Work whose blocks also count against {@code budget} (null: none), e.g. a query's or a stream's share. */
    public DeviceWork(CudaDevice device, DeviceBudget budget) {
        this.device = device;
        this.budget = budget;
        device.bind();
        this.stream = new GpuStream(device);
    }

    public CudaDevice device() {
        return device;
    }

    public GpuStream stream() {
        return stream;
    }

    /** The budget this work's blocks count against; null when only the pool limits them. */
    public DeviceBudget budget() {
        return budget;
    }

    /**
     * The stream for host-to-device copies that run while this work's kernels do: the copy engine
     * moves the next input while the previous one is processed. Kernels that read what was queued
     * there wait for it through {@link #awaitTransfers()}.
     */
    public GpuStream transfers() {
        if (transfers == null) {
            transfers = new GpuStream(device);
        }
        return transfers;
    }

    /** Makes kernels queued on {@link #stream()} from now on wait (on the device) for the copies queued so far. */
    public void awaitTransfers() {
        if (transfers != null) {
            stream.waitFor(transfers);
        }
    }

    public Kernel kernel(String module, String function) {
        return device.kernels().kernel(module, function);
    }

    /** A block for this work's kernels; closed while they may still run, it waits for them before it is reused. */
    public DeviceBuffer allocate(long bytes, String owner) {
        return device.pool().allocate(bytes, owner, budget);
    }

    /** A zeroed block. */
    public DeviceBuffer allocateZeroed(long bytes, String owner) {
        DeviceBuffer b = allocate(bytes, owner);
        b.fill((byte) 0, bytes, stream);
        return b;
    }

    /** A block holding {@code values}, their copy queued on {@link #stream()} (the array may change once this returns). */
    public DeviceBuffer upload(int[] values, String owner) {
        return upload(List.of(values), owner);
    }

    /** A block holding {@code pieces} one after another, their copies queued on {@link #stream()}. */
    public DeviceBuffer upload(List<int[]> pieces, String owner) {
        long ints = pieces.stream().mapToLong(piece -> piece.length).sum();
        DeviceBuffer b = allocate(Math.max(ints * Integer.BYTES, 8), owner);
        stage(b, upload -> pieces.forEach(upload::putInts));
        return b;
    }

    public DeviceBuffer upload(long[] values, String owner) {
        DeviceBuffer b = allocate(Math.max((long) values.length * Long.BYTES, 8), owner);
        stage(b, upload -> upload.putLongs(values));
        return b;
    }

    private void stage(DeviceBuffer target, Consumer<PinnedStaging.Upload> puts) {
        PinnedStaging staging = device.staging();
        synchronized (staging) {
            PinnedStaging.Upload upload = staging.upload(target, stream);
            puts.accept(upload);
            bytesToDevice += upload.finish();
        }
    }

    public long[] downloadLongs(DeviceBuffer source, int count) {
        long[] out = new long[count];
        download(source, 0, (long) count * Long.BYTES,
                (staged, at) -> staged.asLongBuffer().get(out, (int) (at / Long.BYTES), staged.remaining() / Long.BYTES));
        return out;
    }

    public int[] downloadInts(DeviceBuffer source, int count) {
        int[] out = new int[count];
        download(source, 0, (long) count * Integer.BYTES,
                (staged, at) -> staged.asIntBuffer().get(out, (int) (at / Integer.BYTES), staged.remaining() / Integer.BYTES));
        return out;
    }

    /** Bytes {@code [from, from + count)} of {@code source}. */
    public byte[] downloadBytes(DeviceBuffer source, long from, int count) {
        byte[] out = new byte[count];
        download(source, from, count, (staged, at) -> staged.get(out, (int) at, staged.remaining()));
        return out;
    }

    /** A block holding {@code values}, their copy queued on {@link #stream()}. */
    public DeviceBuffer upload(byte[] values, String owner) {
        DeviceBuffer b = allocate(Math.max(values.length, 8), owner);
        stage(b, upload -> upload.put(ByteBuffer.wrap(values)));
        return b;
    }

    /** Copies bytes of {@code source} to the host through the pinned staging once this work's kernels have run; waits for them. */
    private void download(DeviceBuffer source, long offset, long bytes, PinnedStaging.Sink sink) {
        if (bytes == 0) {
            return;
        }
        PinnedStaging staging = device.staging();
        synchronized (staging) {
            staging.download(source, offset, bytes, sink, stream);
        }
        bytesToHost += bytes;
    }

    public void countToDevice(long bytes) {
        bytesToDevice += bytes;
    }

    public void countToHost(long bytes) {
        bytesToHost += bytes;
    }

    public long bytesToDevice() {
        return bytesToDevice;
    }

    public long bytesToHost() {
        return bytesToHost;
    }

    /**
     * Counts {@code bytes} of {@code block} as read by this work's kernels (EXPLAIN ANALYZE's
     * dev_read), once however often the block is named.
     */
    public void countDeviceRead(DeviceBuffer block, long bytes) {
        if (blocksRead.add(block)) {
            deviceBytesRead += bytes;
        }
    }

    /** Whether {@code block} was counted as read: a result that passes it on did not write it. */
    public boolean countedAsRead(DeviceBuffer block) {
        return blocksRead.contains(block);
    }

    /** Counts bytes this work's kernels or copies wrote to device memory (EXPLAIN ANALYZE's dev_write). */
    public void countDeviceWritten(long bytes) {
        deviceBytesWritten += bytes;
    }

    public long deviceBytesRead() {
        return deviceBytesRead;
    }

    public long deviceBytesWritten() {
        return deviceBytesWritten;
    }

    /** Waits for queued work (copies too); kernel time so far is then in {@link #kernelNanos()}. */
    public void synchronize() {
        if (transfers != null) {
            transfers.synchronize();
        }
        stream.synchronize();
    }

    public long kernelNanos() {
        return stream.kernelNanos();
    }

    @Override
    public void close() {
        if (transfers != null) {
            transfers.close();
        }
        stream.close();
    }
}
