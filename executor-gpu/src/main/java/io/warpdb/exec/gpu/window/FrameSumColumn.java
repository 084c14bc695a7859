package io.warpdb.exec.gpu.window;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.PrefixSum;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * COUNT(*), COUNT, SUM, SUM0 and AVG over each position's frame (window/frame_sum.cu, the CPU's
 * FrameSumEvaluator): counts and exact sums from prefix sums over the sorted positions (a frame
 * is one subtraction, exact in 128 bits), DOUBLE sums from a table of power-of-two block sums (a
 * frame adds at most log2(length) + 1 disjoint blocks, no subtraction that could cancel digits).
 * Exact averages come as the result type or, as the planner types AVG, as DOUBLE; a SUM typed as a
 * wide DECIMAL (DECIMAL(38, s)) is written as its 16 bytes. A wide DECIMAL argument has two prefix
 * sums, of its values' lower words (unsigned) and upper words (signed), joined per frame as
 * upper * 2^64 + lower (the CPU's {@link Int128#setWordSums}). A value the kernel cannot finish
 * (a sum beyond 64 bits but for a wide result, beyond 128 bits, a result out of its type's range,
 * a quotient not exact in doubles) makes the host finish the column from the same prefix sums
 * with core's {@link ExactSums} and {@link ExactQuotients}, which give the CPU's value or its error.
 */
final class FrameSumColumn {
    private static final String MODULE = "window/frame_sum";
    private static final int FIT_INT32 = 1;
    private static final int ROUND_HALF_UP = 2;
    private static final int DOUBLE_RESULT = 4;
    private static final int INT128_BYTES = 16;
    /** The word of a wide argument a prefix sum adds (frame_sum.cu); narrow values add themselves. */
    private static final int LOWER_WORD = 0;
    private static final int UPPER_WORD = 1;

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
            boolean sums = call.function() != WindowFunction.COUNT_STAR && call.function() != WindowFunction.COUNT;
            try (Prefixes prefixes = sums ? Prefixes.of(values, segments, work) : null) {
                return exact(call, values, counts, prefixes, frame, rows, work);
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

    /**
     * The argument's 128-bit sums of sorted positions [0, p), for p in [0, rows]: of its values, or
     * of a wide argument's lower words ({@code sums}) and upper words ({@code upperSums}, else null).
     */
    private record Prefixes(DeviceBuffer sums, DeviceBuffer upperSums) implements AutoCloseable {
        static Prefixes of(DeviceColumn values, WindowSegments segments, DeviceWork work) {
            DeviceBuffer sums = prefixSums(values, LOWER_WORD, segments, work);
            try {
                return new Prefixes(sums, values.type().isWideDecimal() ? prefixSums(values, UPPER_WORD, segments, work) : null);
            } catch (RuntimeException e) {
                sums.close();
                throw e;
            }
        }

        @Override
        public void close() {
            sums.close();
            if (upperSums != null) {
                upperSums.close();
            }
        }
    }

    /** The prefix sums of {@code word} of the values (of the values themselves if narrow): tile sums, their scan, the tiles' scans. */
    private static DeviceBuffer prefixSums(DeviceColumn values, int word, WindowSegments segments, DeviceWork work) {
        int rows = segments.rows();
        int tiles = GridSize.tiles(rows);
        int width = DeviceColumn.width(values.type());
        DeviceBuffer prefix = work.allocate(((long) rows + 1) * INT128_BYTES, "window prefix sums");
        try (DeviceBuffer tileSums = work.allocate((long) Math.max(1, tiles) * INT128_BYTES, "window tile sums")) {
            work.kernel(MODULE, "sum_tiles").launch(work.stream(), tiles, GridSize.BLOCK, 0, values.values(), values.validity(),
                    width, word, segments.sorted(), rows, tileSums);
            work.kernel(MODULE, "scan_tile_sums").launch(work.stream(), 1, GridSize.BLOCK, 0, tileSums, tiles);
            work.kernel(MODULE, "sum_prefix").launch(work.stream(), tiles, GridSize.BLOCK, 0, values.values(), values.validity(),
                    width, word, segments.sorted(), rows, tileSums, prefix);
            return prefix;
        } catch (RuntimeException e) {
            prefix.close();
            throw e;
        }
    }

    private static DeviceColumn exact(WindowCall call, DeviceColumn values, DeviceBuffer counts, Prefixes prefixes,
            WindowFrames.Bounds frame, int rows, DeviceWork work) {
        DataType type = call.type();
        int width = DeviceColumn.width(type);
        int flags = (type.kind() == TypeKind.INTEGER ? FIT_INT32 : 0) | (type.kind() == TypeKind.DECIMAL ? ROUND_HALF_UP : 0)
                | (type.kind() == TypeKind.DOUBLE ? DOUBLE_RESULT : 0);
        int inputScale = values == null ? 0 : Decimals.scaleOf(values.type());
        // A wide result's bound: 10^precision (unused otherwise).
        BigInteger limit = type.isWideDecimal() ? BigInteger.TEN.pow(type.precision()) : BigInteger.ZERO;
        DeviceBuffer out = work.allocate((long) rows * width, "window frame values");
        DeviceBuffer outValid = null;
        try {
            outValid = work.allocate(rows, "window frame validity");
            try (DeviceBuffer needsHost = work.upload(new int[1], "window frame finish flag")) {
                work.kernel(MODULE, "exact_frames").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0,
                        call.function().ordinal(), counts, prefixes == null ? null : prefixes.sums(),
                        prefixes == null ? null : prefixes.upperSums(), frame.start(), frame.end(), rows, inputScale,
                        Decimals.scaleOf(type), flags, limit.longValue(), limit.shiftRight(64).longValue(), width, out, outValid,
                        needsHost);
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
        return finishOnHost(call, inputScale, counts, prefixes, frame, rows, work);
    }

    /**
     * Every frame's value computed on the host from the device's prefix sums and bounds, as the
     * CPU computes it (raising its 22003 where a value does not fit), and copied in.
     */
    private static DeviceColumn finishOnHost(WindowCall call, int inputScale, DeviceBuffer counts, Prefixes prefixes,
            WindowFrames.Bounds frame, int rows, DeviceWork work) {
        WindowFunction function = call.function();
        DataType type = call.type();
        int[] start = work.downloadInts(frame.start(), rows);
        int[] end = work.downloadInts(frame.end(), rows);
        int[] count = counts == null ? null : work.downloadInts(counts, rows + 1);
        long[] sums = prefixes == null ? null : work.downloadLongs(prefixes.sums(), 2 * (rows + 1));
        long[] upperSums = prefixes == null || prefixes.upperSums() == null ? null
                : work.downloadLongs(prefixes.upperSums(), 2 * (rows + 1));
        // A wide result: two words per row, the low one first.
        int words = type.isWideDecimal() ? 2 : 1;
        long[] value = new long[words * rows];
        byte[] valid = new byte[rows];
        Int128 sum = new Int128();
        Int128 upper = new Int128();
        for (int i = 0; i < rows; i++) {
            long n = count == null ? end[i] - start[i] : count[end[i]] - count[start[i]];
            valid[i] = 1;
            if (function == WindowFunction.COUNT_STAR || function == WindowFunction.COUNT) {
                value[i] = Decimals.checkFits(n, type);
            } else if (n == 0) {
                valid[i] = (byte) (function == WindowFunction.SUM0 ? 1 : 0);
            } else {
                difference(sums, start[i], end[i], sum);
                if (upperSums != null) {
                    difference(upperSums, start[i], end[i], upper);
                    sum.setWordSums(upper.high, upper.low, sum.high, sum.low);
                }
                if (type.kind() == TypeKind.DOUBLE) {
                    value[i] = Double.doubleToRawLongBits(ExactQuotients.toDouble(sum.high, sum.low, inputScale, n));
                } else if (words == 2) {
                    ExactSums.wideValue(sum.high, sum.low, inputScale, type, sum);
                    value[2 * i] = sum.low;
                    value[2 * i + 1] = sum.high;
                } else {
                    value[i] = ExactSums.value(sum.high, sum.low, inputScale, n, function == WindowFunction.AVG, type);
                }
            }
        }
        DeviceBuffer hostValues = DeviceColumn.width(type) == Integer.BYTES
                ? work.upload(Arrays.stream(value).mapToInt(v -> (int) v).toArray(), "window host-finished values")
                : work.upload(value, "window host-finished values");
        try {
            return new DeviceColumn(type, rows, hostValues, work.upload(valid, "window host-finished validity"), null);
        } catch (RuntimeException e) {
            hostValues.close();
            throw e;
        }
    }

    /** into := the 128-bit prefix sum at e minus the one at s, from little-endian __int128 words (the low word first). */
    private static void difference(long[] prefix, int s, int e, Int128 into) {
        into.set(prefix[2 * e + 1], prefix[2 * e]).subtract(prefix[2 * s + 1], prefix[2 * s]);
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
