package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;
import java.util.Arrays;

/**
 * COUNT(*), COUNT, SUM, SUM0 and AVG over each position's frame (window/frame_sum.cu, the CPU's
 * FrameSumEvaluator): counts and exact sums from prefix sums over the sorted positions (a frame
 * is one subtraction, exact in 128 bits), DOUBLE sums from a table of power-of-two block sums (a
 * frame adds at most log2(length) + 1 disjoint blocks, no subtraction that could cancel digits).
 * Exact averages come as the result type or, as the planner types AVG, as DOUBLE. A value the
 * kernel cannot finish (a sum beyond 64 bits, a result out of its type's range, a quotient not
 * exact in doubles) makes the host finish the column from the same prefix sums with core's
 * {@link ExactSums} and {@link ExactQuotients}, which give the CPU's value or its error.
 */
final class FrameSumColumn {
    private static final String MODULE = "window/frame_sum";
    private static final int FIT_INT32 = 1;
    private static final int ROUND_HALF_UP = 2;
    private static final int DOUBLE_RESULT = 4;
    private static final int INT128_BYTES = 16;

    private FrameSumColumn() {
    }

    static boolean applies(WindowFunction function) {
        return switch (function) {
            case COUNT_STAR, COUNT, SUM, SUM0, AVG -> true;
            default -> false;
        };
    }

    static DeviceColumn of(WindowCall call, DeviceTable input, WindowSegments segments, WindowFrames.Bounds frame, DeviceWork work) {
        int rows = segments.rows();
        DeviceColumn values = call.function() == WindowFunction.COUNT_STAR ? null
                : input.column(((ColumnRef) call.args().get(0)).index());
        DeviceBuffer counts = values == null ? null : validCounts(values, segments, work);
        try {
            if (values != null && values.type().kind() == TypeKind.DOUBLE && call.function() != WindowFunction.COUNT) {
                return doubleSums(call, values, counts, segments, frame, work);
            }
            DeviceBuffer prefix = call.function() == WindowFunction.COUNT_STAR || call.function() == WindowFunction.COUNT ? null
                    : exactPrefix(values, segments, work);
            try {
                return exact(call, values, counts, prefix, frame, rows, work);
            } finally {
                if (prefix != null) {
                    prefix.close();
                }
            }
        } finally {
            if (counts != null) {
                counts.close();
            }
        }
    }

    /** Non-NULL values among sorted positions [0, p), for p in [0, rows]. */
    private static DeviceBuffer validCounts(DeviceColumn values, WindowSegments segments, DeviceWork work) {
        int rows = segments.rows();
        DeviceBuffer counts = work.allocate(((long) rows + 1) * Integer.BYTES, "window frame counts");
        try (DeviceBuffer flags = work.allocate((long) rows * Integer.BYTES, "window non-NULL flags")) {
            work.kernel(MODULE, "valid_flags").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                    values.validity(), segments.sorted(), rows, flags);
            PrefixSum.exclusive(flags, counts, rows, work);
            return counts;
        } catch (RuntimeException e) {
            counts.close();
            throw e;
        }
    }

    /** The 128-bit sums of sorted positions [0, p), for p in [0, rows]: tile sums, their scan, the tiles' scans. */
    private static DeviceBuffer exactPrefix(DeviceColumn values, WindowSegments segments, DeviceWork work) {
        int rows = segments.rows();
        int tiles = GridSize.tiles(rows);
        int width = DeviceColumn.width(values.type());
        DeviceBuffer prefix = work.allocate(((long) rows + 1) * INT128_BYTES, "window prefix sums");
        try (DeviceBuffer tileSums = work.allocate((long) Math.max(1, tiles) * INT128_BYTES, "window tile sums")) {
            work.kernel(MODULE, "sum_tiles").launch(work.stream(), tiles, GridSize.BLOCK, 0, values.values(), values.validity(),
                    width, segments.sorted(), rows, tileSums);
            work.kernel(MODULE, "scan_tile_sums").launch(work.stream(), 1, GridSize.BLOCK, 0, tileSums, tiles);
            work.kernel(MODULE, "sum_prefix").launch(work.stream(), tiles, GridSize.BLOCK, 0, values.values(), values.validity(),
                    width, segments.sorted(), rows, tileSums, prefix);
            return prefix;
        } catch (RuntimeException e) {
            prefix.close();
            throw e;
        }
    }

    private static DeviceColumn exact(WindowCall call, DeviceColumn values, DeviceBuffer counts, DeviceBuffer prefix,
            WindowFrames.Bounds frame, int rows, DeviceWork work) {
        DataType type = call.type();
        int width = DeviceColumn.width(type);
        int flags = (type.kind() == TypeKind.INTEGER ? FIT_INT32 : 0) | (type.kind() == TypeKind.DECIMAL ? ROUND_HALF_UP : 0)
                | (type.kind() == TypeKind.DOUBLE ? DOUBLE_RESULT : 0);
        int inputScale = values == null ? 0 : Decimals.scaleOf(values.type());
        DeviceBuffer out = work.allocate((long) rows * width, "window frame values");
        DeviceBuffer outValid = null;
        try {
            outValid = work.allocate(rows, "window frame validity");
            try (DeviceBuffer needsHost = work.upload(new int[1], "window frame finish flag")) {
                work.kernel(MODULE, "exact_frames").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                        call.function().ordinal(), counts, prefix, frame.start(), frame.end(), rows, inputScale,
                        Decimals.scaleOf(type), flags, width, out, outValid, needsHost);
                if (work.downloadInts(needsHost, 1)[0] == 0) {
                    return new DeviceColumn(type, rows, out, outValid, null);
                }
            }
        } catch (RuntimeException e) {
            out.close();
            if (outValid != null) {
                outValid.close();
            }
            throw e;
        }
        out.close();
        outValid.close();
        return finishOnHost(call, inputScale, counts, prefix, frame, rows, work);
    }

    /**
     * Every frame's value computed on the host from the device's prefix sums and bounds, as the
     * CPU computes it (raising its 22003 where a value does not fit), and copied in.
     */
    private static DeviceColumn finishOnHost(WindowCall call, int inputScale, DeviceBuffer counts, DeviceBuffer prefix,
            WindowFrames.Bounds frame, int rows, DeviceWork work) {
        WindowFunction function = call.function();
        DataType type = call.type();
        int[] start = work.downloadInts(frame.start(), rows);
        int[] end = work.downloadInts(frame.end(), rows);
        int[] count = counts == null ? null : work.downloadInts(counts, rows + 1);
        long[] sums = prefix == null ? null : work.downloadLongs(prefix, 2 * (rows + 1));
        long[] value = new long[rows];
        byte[] valid = new byte[rows];
        for (int i = 0; i < rows; i++) {
            long n = count == null ? end[i] - start[i] : count[end[i]] - count[start[i]];
            valid[i] = 1;
            if (function == WindowFunction.COUNT_STAR || function == WindowFunction.COUNT) {
                value[i] = Decimals.checkFits(n, type);
            } else if (n == 0) {
                valid[i] = (byte) (function == WindowFunction.SUM0 ? 1 : 0);
            } else {
                // Little-endian __int128: the low word first.
                long lo = sums[2 * end[i]] - sums[2 * start[i]];
                long hi = sums[2 * end[i] + 1] - sums[2 * start[i] + 1]
                        - (Long.compareUnsigned(sums[2 * end[i]], sums[2 * start[i]]) < 0 ? 1 : 0);
                value[i] = type.kind() == TypeKind.DOUBLE ? Double.doubleToRawLongBits(ExactQuotients.toDouble(hi, lo, inputScale, n))
                        : ExactSums.value(hi, lo, inputScale, n, function == WindowFunction.AVG, type);
            }
        }
        DeviceBuffer hostValues = DeviceColumn.width(type) == Long.BYTES ? work.upload(value, "window host-finished values")
                : work.upload(Arrays.stream(value).mapToInt(v -> (int) v).toArray(), "window host-finished values");
        try {
            return new DeviceColumn(type, rows, hostValues, work.upload(valid, "window host-finished validity"), null);
        } catch (RuntimeException e) {
            hostValues.close();
            throw e;
        }
    }

    private static DeviceColumn doubleSums(WindowCall call, DeviceColumn values, DeviceBuffer counts, WindowSegments segments,
            WindowFrames.Bounds frame, DeviceWork work) {
        int rows = segments.rows();
        int levels = WindowFrames.levels(frame, rows, work);
        int grid = GridSize.strided(rows, work);
        DeviceBuffer out = work.allocate((long) rows * Double.BYTES, "window frame sums");
        DeviceBuffer outValid = null;
        try (DeviceBuffer table = work.allocate((long) levels * rows * Double.BYTES, "window block sums")) {
            outValid = work.allocate(rows, "window frame validity");
            work.kernel(MODULE, "double_leaves").launch(work.stream(), grid, GridSize.BLOCK, 0, values.values(), values.validity(),
                    segments.sorted(), rows, table);
            for (int j = 1; j < levels; j++) {
                work.kernel(MODULE, "double_level").launch(work.stream(), grid, GridSize.BLOCK, 0,
                        table.pointer((long) (j - 1) * rows * Double.BYTES), rows, 1 << (j - 1),
                        table.pointer((long) j * rows * Double.BYTES));
            }
            work.kernel(MODULE, "double_frames").launch(work.stream(), grid, GridSize.BLOCK, 0, call.function().ordinal(), table,
                    counts, frame.start(), frame.end(), rows, out, outValid);
            return new DeviceColumn(call.type(), rows, out, outValid, null);
        } catch (RuntimeException e) {
            out.close();
            if (outValid != null) {
                outValid.close();
            }
            throw e;
        }
    }
}
