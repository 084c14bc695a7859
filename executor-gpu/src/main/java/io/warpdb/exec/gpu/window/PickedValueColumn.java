package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;

/**
 * LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN and MAX: the argument's value at one sorted
 * position (window/pick.cu, the CPU's PickedValueEvaluator). Each position gets its source
 * position first (an offset away within the partition, a place in the frame, or the frame's
 * extreme by {@link FrameExtremes}), then one gather reads the values; a string result keeps
 * the argument's codes and dictionary.
 */
final class PickedValueColumn {
    private static final String MODULE = "window/pick";
    private static final int NO_DEFAULT = 0;
    private static final int CONSTANT_DEFAULT = 1;
    private static final int COLUMN_DEFAULT = 2;

    private PickedValueColumn() {
    }

    static boolean applies(WindowFunction function) {
        return switch (function) {
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN, MAX -> true;
            default -> false;
        };
    }

    static DeviceColumn of(WindowCall call, DeviceTable input, WindowSegments segments, WindowFrames.Bounds frame,
            DeviceWork work) {
        int rows = segments.rows();
        int grid = GridSize.strided(rows, work);
        DeviceColumn values = input.column(((ColumnRef) call.args().get(0)).index());
        try (DeviceBuffer source = work.allocate((long) rows * Integer.BYTES, "window value sources")) {
            switch (call.function()) {
                case LAG, LEAD -> {
                    long offset = call.constantArgument(1, 1, Long.MIN_VALUE + 1);
                    work.kernel(MODULE, "offset_sources").launch(work.stream(), grid, GridSize.BLOCK, 0, segments.partId(),
                            segments.partStarts(), rows, call.function() == WindowFunction.LAG ? -offset : offset, source);
                }
                case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                    long place = call.function() == WindowFunction.NTH_VALUE ? call.constantArgument(1, -1, 1) - 1 : 0;
                    work.kernel(MODULE, "frame_sources").launch(work.stream(), grid, GridSize.BLOCK, 0, frame.start(), frame.end(),
                            rows, call.function() == WindowFunction.LAST_VALUE ? 1 : 0, place, source);
                }
                case MIN, MAX -> FrameExtremes.sources(values, call.function() == WindowFunction.MAX, segments, frame, source, work);
                default -> throw new IllegalStateException(call.function() + " does not pick a value");
            }
            return pick(call, values, input, segments, source, work);
        }
    }

    private static DeviceColumn pick(WindowCall call, DeviceColumn values, DeviceTable input, WindowSegments segments,
            DeviceBuffer source, DeviceWork work) {
        int rows = segments.rows();
        int width = DeviceColumn.width(call.type());
        Expr fallback = call.args().size() > 2 ? call.args().get(2) : null;
        DeviceColumn defaults = fallback instanceof ColumnRef ref ? input.column(ref.index()) : null;
        Object constant = fallback instanceof Literal literal ? literal.value() : null;
        int defaultMode = defaults != null ? COLUMN_DEFAULT : constant != null ? CONSTANT_DEFAULT : NO_DEFAULT;
        DeviceBuffer out = work.allocate((long) rows * width, "window picked values");
        DeviceBuffer outValid = null;
        try {
            outValid = work.allocate(rows, "window picked validity");
            work.kernel(MODULE, "pick_values").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0, values.values(),
                    values.validity(), width, segments.sorted(), source, rows, defaultMode, physical(constant),
                    defaults == null ? null : defaults.values(), defaults == null ? null : defaults.validity(), out, outValid);
            return new DeviceColumn(call.type(), rows, out, outValid, values.dictionary());
        } catch (RuntimeException e) {
            out.close();
            if (outValid != null) {
                outValid.close();
            }
            throw e;
        }
    }

    /** A constant default's device value: integers, DATE days and unscaled DECIMALs as they are, booleans 0/1, doubles' bits. */
    private static long physical(Object constant) {
        if (constant instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (constant instanceof Double d) {
            return Double.doubleToRawLongBits(d);
        }
        return constant == null ? 0 : (Long) constant;
    }
}
