package io.warpdb.exec.gpu.window;

import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each sorted position's frame [start, end) for every distinct frame of a node's calls that use
 * one (window/frames.cu, the rules of the CPU's FrameBounds), computed once per frame and shared
 * by the calls that see it. A RANGE frame with an offset measures it on the single order key,
 * read once by sorted position.
 */
final class WindowFrames implements AutoCloseable {
    private static final String MODULE = "window/frames";

    /** One frame's bounds by sorted position. */
    record Bounds(DeviceBuffer start, DeviceBuffer end) {
    }

    private final Map<WindowFrame, Bounds> frames = new LinkedHashMap<>();

    private WindowFrames() {
    }

    static WindowFrames of(WindowNode node, DeviceTable input, WindowSegments segments, DeviceWork work) {
        WindowFrames result = new WindowFrames();
        DeviceBuffer rangeKey = null;
        DeviceBuffer rangeValid = null;
        try {
            int rows = segments.rows();
            for (WindowCall call : node.calls()) {
                WindowFrame frame = call.function().usesFrame() ? call.frame() : null;
                if (frame == null || result.frames.containsKey(frame)) {
                    continue;
                }
                boolean measured = hasOffset(frame);
                if (measured && rangeKey == null) {
                    SortKey key = node.orderKeys().get(0);
                    DeviceColumn column = input.column(key.column());
                    rangeKey = work.allocate((long) rows * Long.BYTES, "window range key");
                    rangeValid = column.validity() == null ? null : work.allocate(rows, "window range key validity");
                    work.kernel(MODULE, "range_keys").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                            column.values(), column.validity(), DeviceColumn.width(column.type()), segments.sorted(), rows,
                            key.descending() ? 1 : 0, rangeKey, rangeValid);
                }
                result.frames.put(frame, bounds(frame, segments, measured ? rangeKey : null, measured ? rangeValid : null, work));
            }
            return result;
        } catch (RuntimeException e) {
            result.close();
            throw e;
        } finally {
            if (rangeKey != null) {
                rangeKey.close();
            }
            if (rangeValid != null) {
                rangeValid.close();
            }
        }
    }

    /** Whether the frame is RANGE with an offset bound, measured on the order key's values. */
    static boolean hasOffset(WindowFrame frame) {
        return !frame.rows() && (frame.lower().hasOffset() || frame.upper().hasOffset());
    }

    private static Bounds bounds(WindowFrame frame, WindowSegments segments, DeviceBuffer rangeKey, DeviceBuffer rangeValid,
            DeviceWork work) {
        int rows = segments.rows();
        DeviceBuffer start = work.allocate((long) rows * Integer.BYTES, "window frame starts");
        try {
            DeviceBuffer end = work.allocate((long) rows * Integer.BYTES, "window frame ends");
            work.kernel(MODULE, "frame_bounds").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                    segments.partId(), segments.partStarts(), segments.peerId(), segments.peerStarts(), rows, frame.rows() ? 1 : 0,
                    frame.lower().kind().ordinal(), frame.lower().offset(), frame.upper().kind().ordinal(), frame.upper().offset(),
                    rangeKey, rangeValid, start, end);
            return new Bounds(start, end);
        } catch (RuntimeException e) {
            start.close();
            throw e;
        }
    }

    /** The bounds of {@code frame}, one of the node's calls' frames. */
    Bounds of(WindowFrame frame) {
        return frames.get(frame);
    }

    /** The longest frame of {@code bounds} (a small copy that waits for the kernels). */
    private static int longest(Bounds bounds, int rows, DeviceWork work) {
        try (DeviceBuffer out = work.allocateZeroed(Integer.BYTES, "longest window frame")) {
            work.kernel(MODULE, "longest_frame").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                    bounds.start(), bounds.end(), rows, out);
            return work.downloadInts(out, 1)[0];
        }
    }

    /** Levels of a power-of-two block table that covers every frame of {@code bounds} (at least one). */
    static int levels(Bounds bounds, int rows, DeviceWork work) {
        int longest = longest(bounds, rows, work);
        return longest <= 1 ? 1 : 32 - Integer.numberOfLeadingZeros(longest);
    }

    @Override
    public void close() {
        for (Bounds b : frames.values()) {
            b.start().close();
            b.end().close();
        }
    }
}
