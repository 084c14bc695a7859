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
 * Page-locked host buffers that host-device copies of column data go through: copies from
 * pageable memory run several times slower, so data is first put into pinned memory, unless it
 * already lies in page-locked memory ({@link PinnedHostMemory}: in-memory tables' chunks), which
 * is sent from where it lies. The buffers are used in turn, each copy queued asynchronously, so
 * the copy engine moves one buffer while the host fills the next; an event after each buffer's
 * last copy says when the host may fill it again. Transfers do not wait for their copies (work
 * queued after them on the same stream runs after them), so one transfer's copies overlap the
 * filling of the next: the host, copying from Java memory, is the slower side (large copies into
 * a buffer are split among threads), and two buffers of 32 MiB keep the engine fed with per-copy
 * overheads (microseconds) far below a copy's time. Callers hold the staging's monitor for a
 * whole transfer ({@code synchronized (staging)}).
 */
public final class PinnedStaging {
    private static final int BUFFERS = 2;
    private static final int BUFFER_BYTES = 32 << 20;
    /** The largest copy one thread makes into a staging buffer. */
    private static final int COPY_PIECE_BYTES = 256 << 10;

    /**
     * A transfer that leaves this much of its last buffer free hands the rest to the next one, so
     * small transfers (a kernel's parameter tables) share a buffer instead of each waiting for the
     * copies out of a buffer of their own.
     */
    private static final int SHARED_MIN_BYTES = 1 << 20;
    /** Transfers that share one buffer at most (each adds an event to wait for). */
    private static final int SHARED_MAX_COPIES = 64;

    private final Pointer[] pointers = new Pointer[BUFFERS];
    private final ByteBuffer[] buffers = new ByteBuffer[BUFFERS];
    /** Per buffer, events after copies out of it that may not have run yet (on any stream). */
    private final List<List<CUevent>> copies = new ArrayList<>();
    /** The buffer the next transfer fills first, and from which byte (0 but when it shares the previous one's buffer). */
    private int next;
    private int nextPosition;

    PinnedStaging(CudaDevice device) {
        device.bind();
        for (int i = 0; i < BUFFERS; i++) {
            pointers[i] = new Pointer();
            JCudaDriver.cuMemAllocHost(pointers[i], BUFFER_BYTES);
            buffers[i] = pointers[i].getByteBuffer(0, BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            copies.add(new ArrayList<>());
        }
    }

    /** Buffer {@code i}, empty, once every copy out of it has run. */
    private ByteBuffer acquire(int i) {
        for (CUevent copied : copies.get(i)) {
            JCudaDriver.cuEventSynchronize(copied);
            JCudaDriver.cuEventDestroy(copied);
        }
        copies.get(i).clear();
        return buffers[i].clear();
    }

    /** Where a transfer starts: the free rest of the buffer the previous one shared, else a buffer of its own. */
    private ByteBuffer first() {
        return nextPosition > 0 ? buffers[next].clear().position(nextPosition) : acquire(next);
    }

    /** Where the transfer after one that ended at {@code position} of buffer {@code last} starts. */
    private void ended(int last, int position) {
        int free = (position + 63) & ~63;
        if (BUFFER_BYTES - free >= SHARED_MIN_BYTES && copies.get(last).size() < SHARED_MAX_COPIES) {
            next = last;
            nextPosition = free;
        } else {
            next = (last + 1) % BUFFERS;
            nextPosition = 0;
        }
    }

    /** Queues the copies of buffer {@code i}'s runs to {@code target} and marks the buffer busy. */
    private void send(int i, List<Run> runs, DeviceBuffer target, GpuStream stream) {
        for (Run run : runs) {
            target.copyFromHost(pointers[i].withByteOffset(run.fillStart()), run.deviceOffset(), run.length(), stream);
        }
        CUevent copied = new CUevent();
        JCudaDriver.cuEventCreate(copied, CUevent_flags.CU_EVENT_DISABLE_TIMING);
        JCudaDriver.cuEventRecord(copied, stream.handle());
        copies.get(i).add(copied);
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
        download(source, offset, length, (staged, at) -> out.put(staged), stream);
    }

    /** Takes a piece of a download: {@code staged} (little-endian, from position 0) holds its bytes from byte {@code at} on. */
    @FunctionalInterface
    public interface Sink {
        void take(ByteBuffer staged, long at);
    }

    /** Copies {@code length} bytes at {@code offset} of {@code source} through the pinned buffers, piece by piece into {@code sink}; waits for them. */
    public void download(DeviceBuffer source, long offset, long length, Sink sink, GpuStream stream) {
        long done = 0;
        while (done < length) {
            int piece = (int) Math.min(BUFFER_BYTES, length - done);
            ByteBuffer staged = acquire(next).duplicate().order(ByteOrder.LITTLE_ENDIAN);
            source.copyToHost(pointers[next], offset + done, piece, stream);
            stream.synchronize();
            staged.position(0).limit(piece);
            sink.take(staged, done);
            done += piece;
        }
    }

    /** {@code length} bytes of {@code source} from {@code sourceIndex}, to be put into a fill buffer at {@code fillIndex}. */
    private record PendingCopy(ByteBuffer source, int sourceIndex, int fillIndex, int length) {
        /** Absolute puts only: pieces into one buffer run at once. */
        void run(ByteBuffer fill) {
            fill.put(fillIndex, source, sourceIndex, length);
        }
    }

    /** Bytes [fillStart, fillStart + length) of a staging buffer, bound for {@code deviceOffset}. */
    private record Run(int fillStart, int length, long deviceOffset) {
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
        /** Where on the device the next byte put goes. */
        private long deviceOffset;
        /**
         * The fill buffer's bytes bound for the device, in runs: a byte sent from where it lies
         * ({@link #put}) ends one, since the next staged byte goes to the device after it.
         */
        private final List<Run> runs = new ArrayList<>();
        /** Where in the fill buffer the open run starts, and where on the device. */
        private int runFill;
        private long runDevice;

        /** Copies of {@link #put} into {@link #fill} not made yet: they run together, on several threads, before it is sent. */
        private final List<PendingCopy> pending = new ArrayList<>();

        Upload(PinnedStaging staging, DeviceBuffer target, GpuStream stream) {
            this.staging = staging;
            this.target = target;
            this.stream = stream;
            this.current = staging.next;
            this.fill = staging.first();
            openRun();
        }

        /**
         * Puts the source's remaining bytes (which must not change until the copies have run):
         * sent from where they lie when that is page-locked memory, else staged.
         */
        public void put(ByteBuffer source) {
            Pointer inPlace = PinnedHostMemory.pointerTo(source);
            if (inPlace != null) {
                closeRun();
                target.copyFromHost(inPlace, deviceOffset, source.remaining(), stream);
                deviceOffset += source.remaining();
                openRun();
                return;
            }
            ByteBuffer src = source.duplicate();
            while (src.hasRemaining()) {
                if (!fill.hasRemaining()) {
                    flip();
                }
                int n = Math.min(src.remaining(), fill.remaining());
                pending.add(new PendingCopy(src, src.position(), fill.position(), n));
                advance(n);
                src.position(src.position() + n);
            }
        }

        /** Counts {@code n} bytes put into the fill buffer at its position. */
        private void advance(int n) {
            fill.position(fill.position() + n);
            deviceOffset += n;
        }

        /** Ends the fill buffer's open run at its position. */
        private void closeRun() {
            int length = fill.position() - runFill;
            if (length > 0) {
                runs.add(new Run(runFill, length, runDevice));
            }
        }

        private void openRun() {
            runFill = fill.position();
            runDevice = deviceOffset;
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
                advance(n * width);
                done += n;
            }
        }

        public void putInt(int v) {
            if (fill.remaining() < Integer.BYTES) {
                flip();
            }
            fill.putInt(fill.position(), v);
            advance(Integer.BYTES);
        }

        public void putByte(byte v) {
            if (!fill.hasRemaining()) {
                flip();
            }
            fill.put(fill.position(), v);
            advance(1);
        }

        /** Queues the copy of the filled buffer and goes on with the next one, once its last copy has run. */
        private void flip() {
            sendFilled();
            current = (current + 1) % BUFFERS;
            fill = staging.acquire(current);
            openRun();
        }

        private void sendFilled() {
            copyPending();
            closeRun();
            if (!runs.isEmpty()) {
                staging.send(current, runs, target, stream);
                runs.clear();
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

        /** Queues the copy of what is left; returns the bytes copied. The next transfer starts in the free rest of this one's last buffer, or in the buffer after it. */
        public long finish() {
            sendFilled();
            staging.ended(current, fill.position());
            return deviceOffset;
        }
    }
}
