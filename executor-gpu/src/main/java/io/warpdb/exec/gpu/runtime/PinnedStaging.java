package io.warpdb.exec.gpu.runtime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.JCudaDriver;

/**
 * Page-locked host buffers that every host-device copy of column data goes through: copies from
 * pageable memory run several times slower, so data is first put into pinned memory. The buffers
 * are used in turn, each copy queued asynchronously, so the copy engine moves one buffer while the
 * host fills the next; an event after each buffer's last copy says when the host may fill it
 * again. Transfers do not wait for their copies (work queued after them on the same stream runs
 * after them), so one transfer's copies overlap the filling of the next: the host, copying from
 * Java memory, is the slower side (large copies into a buffer are split among threads), and two
 * buffers of 32 MiB keep the engine fed with per-copy overheads (microseconds) far below a copy's
 * time. Callers hold the staging's monitor for a whole
 * transfer ({@code synchronized (staging)}).
 */
public final class PinnedStaging {
    private static final int BUFFERS = 2;
    private static final int BUFFER_BYTES = 32 << 20;
    /** The largest copy one thread makes into a staging buffer. */
    private static final int COPY_PIECE_BYTES = 256 << 10;

    private final Pointer[] pointers = new Pointer[BUFFERS];
    private final ByteBuffer[] buffers = new ByteBuffer[BUFFERS];
    /** Per buffer, an event after the last copy out of it that may not have run yet; null when none. */
    private final CUevent[] copies = new CUevent[BUFFERS];
    /** The buffer the next transfer fills first (the one used longest ago). */
    private int next;

    PinnedStaging(CudaDevice device) {
        device.bind();
        for (int i = 0; i < BUFFERS; i++) {
            pointers[i] = new Pointer();
            JCudaDriver.cuMemAllocHost(pointers[i], BUFFER_BYTES);
            buffers[i] = pointers[i].getByteBuffer(0, BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** Buffer {@code i}, empty, once every copy out of it has run. */
    private ByteBuffer acquire(int i) {
        if (copies[i] != null) {
            JCudaDriver.cuEventSynchronize(copies[i]);
            JCudaDriver.cuEventDestroy(copies[i]);
            copies[i] = null;
        }
        return buffers[i].clear();
    }

    /** Queues a copy of the first {@code length} bytes of buffer {@code i} to {@code target} and marks the buffer busy. */
    private void send(int i, int length, DeviceBuffer target, long deviceOffset, GpuStream stream) {
        target.copyFromHost(pointers[i], deviceOffset, length, stream);
        CUevent copied = new CUevent();
        JCudaDriver.cuEventCreate(copied, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        JCudaDriver.cuEventRecord(copied, stream.handle());
        copies[i] = copied;
    }

    /**
     * Streams host bytes into {@code target} from offset 0, through the pinned buffers, on {@code
     * stream}: the copies are queued there and may still run when {@link Upload#finish()} returns.
     */
    public Upload upload(DeviceBuffer target, GpuStream stream) {
        return new Upload(this, target, stream);
    }

    /** Copies {@code length} bytes at {@code offset} of {@code source} into {@code out} (at its position); waits for them. */
    public void download(DeviceBuffer source, long offset, long length, ByteBuffer out, GpuStream stream) {
        long done = 0;
        while (done < length) {
            int chunk = (int) Math.min(BUFFER_BYTES, length - done);
            ByteBuffer staged = acquire(next).duplicate();
            source.copyToHost(pointers[next], offset + done, chunk, stream);
            stream.synchronize();
            staged.position(0).limit(chunk);
            out.put(staged);
            done += chunk;
        }
    }

    /** {@code length} bytes of {@code source} from {@code sourceIndex}, to be put into a fill buffer at {@code fillIndex}. */
    private record PendingCopy(ByteBuffer source, int sourceIndex, int fillIndex, int length) {
        /** Absolute puts only: pieces into one buffer run at once. */
        void run(ByteBuffer fill) {
            fill.put(fillIndex, source, sourceIndex, length);
        }
    }

    /** Puts values {@code from} to {@code from + n} of an array at the fill buffer's position. */
    @FunctionalInterface
    private interface BulkPut {
        void put(int from, int n);
    }

    /** One host-to-device transfer in progress; {@link #finish()} queues its last copy. */
    public static final class Upload {
        private final PinnedStaging staging;
        private final DeviceBuffer target;
        private final GpuStream stream;
        private int current;
        private ByteBuffer fill;
        private long deviceOffset;
        /** Copies of {@link #put} into {@link #fill} not made yet: they run together, on several threads, before it is sent. */
        private final List<PendingCopy> pending = new ArrayList<>();

        Upload(PinnedStaging staging, DeviceBuffer target, GpuStream stream) {
            this.staging = staging;
            this.target = target;
            this.stream = stream;
            this.current = staging.next;
            this.fill = staging.acquire(current);
        }

        /** Puts the source's remaining bytes (which must not change until {@link #finish()}). */
        public void put(ByteBuffer source) {
            ByteBuffer src = source.duplicate();
            while (src.hasRemaining()) {
                if (!fill.hasRemaining()) {
                    flip();
                }
                int n = Math.min(src.remaining(), fill.remaining());
                pending.add(new PendingCopy(src, src.position(), fill.position(), n));
                fill.position(fill.position() + n);
                src.position(src.position() + n);
            }
        }

        /** Puts the values in bulk (a put per value costs more than the copy for code maps of millions). */
        public void putInts(int[] values) {
            putArray(values.length, Integer.BYTES, (from, n) -> fill.asIntBuffer().put(values, from, n));
        }

        public void putLongs(long[] values) {
            putArray(values.length, Long.BYTES, (from, n) -> fill.asLongBuffer().put(values, from, n));
        }

        /** Puts {@code length} values of {@code width} bytes, as many at a time as the fill buffer takes. */
        private void putArray(int length, int width, BulkPut put) {
            int done = 0;
            while (done < length) {
                if (fill.remaining() < width) {
                    flip();
                }
                int n = Math.min(length - done, fill.remaining() / width);
                put.put(done, n);
                fill.position(fill.position() + n * width);
                done += n;
            }
        }

        public void putInt(int v) {
            if (fill.remaining() < Integer.BYTES) {
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

        /** Queues the copy of the filled buffer and goes on with the next one, once its last copy has run. */
        private void flip() {
            sendFilled();
            current = (current + 1) % BUFFERS;
            fill = staging.acquire(current);
        }

        private void sendFilled() {
            copyPending();
            int length = fill.position();
            if (length > 0) {
                staging.send(current, length, target, deviceOffset, stream);
                deviceOffset += length;
            }
        }

        /**
         * Makes the pending copies into the fill buffer, cut into pieces of {@link
         * #COPY_PIECE_BYTES} run on the common pool: one core copies out of the Java heap at a
         * fraction of the copy engine's 54 GB/s, and a column's chunks are often only a few
         * hundred KiB each, so the pieces of all of them go together.
         */
        private void copyPending() {
            List<PendingCopy> pieces = new ArrayList<>();
            for (PendingCopy copy : pending) {
                for (int start = 0; start < copy.length(); start += COPY_PIECE_BYTES) {
                    int n = Math.min(COPY_PIECE_BYTES, copy.length() - start);
                    pieces.add(new PendingCopy(copy.source(), copy.sourceIndex() + start, copy.fillIndex() + start, n));
                }
            }
            pending.clear();
            ByteBuffer to = fill;
            if (pieces.size() == 1) {
                pieces.get(0).run(to);
            } else if (!pieces.isEmpty()) {
                pieces.parallelStream().forEach(piece -> piece.run(to));
            }
        }

        /** Queues the copy of what is left; returns the bytes copied. The next transfer starts in the buffer after this one's last. */
        public long finish() {
            sendFilled();
            staging.next = (current + 1) % BUFFERS;
            return deviceOffset;
        }
    }
}
