package io.warpdb.exec.gpu.runtime;

import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;

/**
 * A CUDA stream that one operator's kernels and copies are queued on, with events around each
 * kernel so that EXPLAIN ANALYZE can report kernel time apart from copies and host work.
 */
public final class GpuStream implements AutoCloseable {
    private final CUstream handle = new CUstream();
    private final DevicePool pool;
    private final List<CUevent[]> kernelEvents = new ArrayList<>();
    private CUevent pendingStart;
    private long kernelNanos;
    private volatile boolean closed;

    public GpuStream(CudaDevice device) {
        device.bind();
        JCudaDriver.cuStreamCreate(handle, CUstream_flags.CU_STREAM_NON_BLOCKING);
        this.pool = device.pool();
        pool.streamOpened(this);
    }

    public CUstream handle() {
        return handle;
    }

    void beginKernel() {
        pendingStart = recordEvent();
    }

    void endKernel() {
        kernelEvents.add(new CUevent[] {pendingStart, recordEvent()});
        pendingStart = null;
    }

    private CUevent recordEvent() {
        CUevent e = new CUevent();
        JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DEFAULT);
        JCudaDriver.cuEventRecord(e, handle);
        return e;
    }

    /**
     * An event after everything queued so far (no timing), for memory freed now that the queued
     * work may still read; null once the stream is closed, when all its work has finished.
     */
    synchronized CUevent markQueued() {
        if (closed) {
            return null;
        }
        CUevent e = new CUevent();
        JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        JCudaDriver.cuEventRecord(e, handle);
        return e;
    }

    /**
     * Makes work queued on this stream from now on wait, on the device, until everything queued on
     * {@code other} so far has run (the host does not wait).
     */
    public void waitFor(GpuStream other) {
        CUevent e = new CUevent();
        JCudaDriver.cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        JCudaDriver.cuEventRecord(e, other.handle);
        JCudaDriver.cuStreamWaitEvent(handle, e, 0);
        // Destroying a recorded event is allowed: the driver frees it once the event has completed.
        JCudaDriver.cuEventDestroy(e);
    }

    /** Waits for everything queued and adds the finished kernels' time to {@link #kernelNanos()}. */
    public void synchronize() {
        JCudaDriver.cuStreamSynchronize(handle);
        float[] ms = new float[1];
        for (CUevent[] pair : kernelEvents) {
            JCudaDriver.cuEventElapsedTime(ms, pair[0], pair[1]);
            kernelNanos += (long) (ms[0] * 1e6);
            JCudaDriver.cuEventDestroy(pair[0]);
            JCudaDriver.cuEventDestroy(pair[1]);
        }
        kernelEvents.clear();
    }

    /** Kernel time up to the last {@link #synchronize()}. */
    public long kernelNanos() {
        return kernelNanos;
    }

    @Override
    public void close() {
        synchronize();
        synchronized (this) {
            closed = true;
            JCudaDriver.cuStreamDestroy(handle);
        }
        pool.streamClosed(this);
    }
}
