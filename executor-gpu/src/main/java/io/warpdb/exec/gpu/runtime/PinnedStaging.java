package io.warpdb.exec.gpu.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jcuda.Pointer;
import jcuda.driver.JCudaDriver;

/**
 * Two page-locked host buffers that every host-device copy goes through: copies from pageable
 * memory run several times slower, so data is first put into pinned memory, and while the DMA
 * engine moves one buffer the host fills the other. Callers hold the staging's monitor for a
 * whole transfer ({@code synchronized (staging)}).
 */
public final class PinnedStaging {
    private static final int BUFFER_BYTES = 32 << 20;

    private final Pointer[] pointers = new Pointer[2];
    private final ByteBuffer[] buffers = new ByteBuffer[2];

    PinnedStaging(CudaDevice device) {
        device.bind();
        for (int i = 0; i < 2; i++) {
            pointers[i] = new Pointer();
            JCudaDriver.cuMemAllocHost(pointers[i], BUFFER_BYTES);
            buffers[i] = pointers[i].getByteBuffer(0, BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    Pointer pointer(int i) {
        return pointers[i];
    }

    ByteBuffer buffer(int i) {
        return buffers[i];
    }

    /** Streams host bytes into {@code target} from offset 0, through the two pinned buffers. */
    public Upload upload(DeviceBuffer target, GpuStream stream) {
        return new Upload(this, target, stream);
    }

    /** Copies {@code length} bytes at {@code offset} of {@code source} into {@code out} (at its position). */
    public void download(DeviceBuffer source, long offset, long length, ByteBuffer out, GpuStream stream) {
        long done = 0;
        while (done < length) {
            int chunk = (int) Math.min(BUFFER_BYTES, length - done);
            source.copyToHost(pointers[0], offset + done, chunk, stream);
            stream.synchronize();
            ByteBuffer staged = buffers[0].duplicate();
            staged.position(0).limit(chunk);
            out.put(staged);
            done += chunk;
        }
    }

    /** One host-to-device transfer in progress; {@link #finish()} waits until it is on the device. */
    public static final class Upload {
        private final PinnedStaging staging;
        private final DeviceBuffer target;
        private final GpuStream stream;
        private int current;
        private ByteBuffer fill;
        private long deviceOffset;
        private final boolean[] inFlight = new boolean[2];

        Upload(PinnedStaging staging, DeviceBuffer target, GpuStream stream) {
            this.staging = staging;
            this.target = target;
            this.stream = stream;
            this.fill = staging.buffer(0).clear();
        }

        public void put(ByteBuffer source) {
            ByteBuffer src = source.duplicate();
            while (src.hasRemaining()) {
                if (!fill.hasRemaining()) {
                    flip();
                }
                int n = Math.min(src.remaining(), fill.remaining());
                ByteBuffer slice = src.duplicate();
                slice.limit(slice.position() + n);
                fill.put(slice);
                src.position(src.position() + n);
            }
        }

        public void putInt(int v) {
            if (fill.remaining() < 4) {
                flip();
            }
            fill.putInt(v);
        }

        public void putByte(byte v) {
            if (!fill.hasRemaining()) {
                flip();
            }
            fill.put(v);
        }

        /** Sends the filled buffer and switches to the other, waiting until its last copy is done. */
        private void flip() {
            int length = fill.position();
            target.copyFromHost(staging.pointer(current), deviceOffset, length, stream);
            inFlight[current] = true;
            deviceOffset += length;
            current ^= 1;
            if (inFlight[current]) {
                // The host may refill a pinned buffer only after the DMA out of it has finished.
                stream.synchronize();
                inFlight[0] = false;
                inFlight[1] = false;
            }
            fill = staging.buffer(current).clear();
        }

        /** Sends what is left and waits; returns the bytes copied. */
        public long finish() {
            if (fill.position() > 0) {
                int length = fill.position();
                target.copyFromHost(staging.pointer(current), deviceOffset, length, stream);
                deviceOffset += length;
                fill.clear();
            }
            stream.synchronize();
            return deviceOffset;
        }
    }
}
