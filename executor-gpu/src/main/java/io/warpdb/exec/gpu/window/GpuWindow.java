package io.warpdb.exec.gpu.window;

import io.warpdb.core.exec.Support;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/**
 * Window functions of one window specification on the GPU ({@link WindowNode}): one sort of the
 * rows by partition and order keys with the partitions' and peer groups' bounds found on the
 * device ({@link WindowSegments}), each distinct frame's bounds once ({@link WindowFrames}), then
 * every call as a data-parallel pass over the sorted positions: ranks from the segment bounds
 * ({@link RankingColumn}), values picked at one position ({@link PickedValueColumn}, MIN/MAX by a
 * sparse table), counts and sums from prefix sums ({@link FrameSumColumn}). Emits the rows in the
 * sorted order, as the CPU's operator does, with the calls' columns after the input's. Wide
 * DECIMALs (a SUM's DECIMAL(38, s)) are keys, carried columns, picked values and summed values;
 * a RANGE offset measured on one and an AVG typed as one stay on the CPU.
 */
public final class GpuWindow {
    private GpuWindow() {
    }

    /** Whether every call of the node has a GPU evaluation; the reason (naming the call) if not. */
    public static Support supports(WindowNode node) {
        Schema input = node.input().schema();
        boolean measured = node.calls().stream().anyMatch(c -> c.function().usesFrame() && WindowFrames.hasOffset(c.frame()));
        if (measured) {
            if (node.orderKeys().size() != 1) {
                return Support.no("a RANGE frame with an offset needs exactly one ORDER BY key (the CPU reports it)");
            }
            DataType keyType = input.type(node.orderKeys().get(0).column());
            TypeKind key = keyType.kind();
            // Keys and offsets in their physical units: days for DATE, microseconds for TIMESTAMP, unscaled for DECIMAL.
            if (key != TypeKind.INTEGER && key != TypeKind.BIGINT && key != TypeKind.DECIMAL && key != TypeKind.DATE
                    && key != TypeKind.TIMESTAMP) {
                return Support.no("a RANGE frame with an offset over a " + key + " key runs on the CPU");
            }
            // The frame bounds search 64-bit keys.
            if (keyType.isWideDecimal()) {
                return Support.no("a RANGE frame with an offset over a " + keyType.sqlName() + " key runs on the CPU");
            }
        }
        for (WindowCall call : node.calls()) {
            String unsupported = unsupported(call, input);
            if (unsupported != null) {
                return Support.no(call + " typed " + call.type() + " runs on the CPU: " + unsupported);
            }
        }
        return Support.YES;
    }

    /** Why the GPU cannot evaluate {@code call}, or null. */
    private static String unsupported(WindowCall call, Schema input) {
        WindowFunction f = call.function();
        TypeKind result = call.type().kind();
        if (RankingColumn.applies(f)) {
            if (f == WindowFunction.NTILE && !isIntegerConstant(call.args().get(0))) {
                return "its bucket count is not a constant integer";
            }
            boolean fraction = f == WindowFunction.PERCENT_RANK || f == WindowFunction.CUME_DIST;
            return (fraction ? result == TypeKind.DOUBLE : isCount(result)) ? null : "an unexpected result type";
        }
        if (f == WindowFunction.COUNT_STAR) {
            return isCount(result) ? null : "an unexpected result type";
        }
        if (!(call.args().get(0) instanceof ColumnRef ref)) {
            return "its argument is a constant";
        }
        DataType arg = input.type(ref.index());
        if (PickedValueColumn.applies(f)) {
            if (!sameType(arg, call.type())) {
                return "its argument needs a cast";
            }
            boolean hasPlace = f == WindowFunction.LAG || f == WindowFunction.LEAD || f == WindowFunction.NTH_VALUE;
            if (hasPlace && call.args().size() > 1 && !isIntegerConstant(call.args().get(1))) {
                return "its offset is not a constant integer";
            }
            return call.args().size() > 2 ? unsupportedDefault(call.args().get(2), ref, call.type(), input) : null;
        }
        return switch (f) {
            case COUNT -> isCount(result) ? null : "an unexpected result type";
            case SUM, SUM0, AVG -> {
                if (ProgramCompiler.isCarried(call.type())) {
                    yield "a " + call.type().sqlName() + " sum needs the CPU's range check or rounding";
                }
                if (f == WindowFunction.AVG && call.type().isWideDecimal()) {
                    yield "an average as " + call.type().sqlName() + " is not implemented on the GPU";
                }
                boolean exactResult = isCount(result) || result == TypeKind.DECIMAL || (f == WindowFunction.AVG && result == TypeKind.DOUBLE);
                boolean ok = arg.kind() == TypeKind.DOUBLE ? result == TypeKind.DOUBLE : arg.kind().isExactNumeric() && exactResult;
                yield ok ? null : "sums of " + arg.sqlName() + " as " + call.type().sqlName() + " are not implemented on the GPU";
            }
            default -> "not implemented on the GPU";
        };
    }

    /**
     * Why LAG's or LEAD's default cannot be read as the result type, or null. A string default must
     * be the value's own column (the result keeps one dictionary) or a constant that a VARCHAR
     * result holds as it is (the dictionary gets its entry).
     */
    private static String unsupportedDefault(Expr fallback, ColumnRef value, DataType type, Schema input) {
        if (fallback instanceof Literal literal) {
            if (literal.isNull() || PickedValueColumn.isTextDefault(literal, type)) {
                return null;
            }
            return PickedValueColumn.deviceDefault(literal, type) != null ? null : "its default needs a cast";
        }
        int column = ((ColumnRef) fallback).index();
        boolean sameDictionary = column == value.index();
        return (sameDictionary || !type.kind().isString()) && sameType(input.type(column), type) ? null : "its default needs a cast";
    }

    private static boolean isCount(TypeKind kind) {
        return kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }

    private static boolean isIntegerConstant(Expr arg) {
        return arg instanceof Literal literal && literal.value() instanceof Long;
    }

    /** Same device form: kind, scale and width (strings: any length, codes into their own dictionary). */
    private static boolean sameType(DataType a, DataType b) {
        return a.kind() == b.kind() && (a.kind().isString() || a.scale() == b.scale() && a.isWideDecimal() == b.isWideDecimal());
    }

    /** The node's rows in sorted order, each with its calls' values; {@code input} stays the caller's. */
    public static DeviceTable run(WindowNode node, DeviceTable input, DeviceWork work) {
        List<DeviceColumn> out = new ArrayList<>();
        try (WindowSegments segments = WindowSegments.of(node, input, work);
                WindowFrames frames = WindowFrames.of(node, input, segments, work)) {
            try (DeviceTable sorted = ColumnGather.gather(input, segments.sorted(), segments.rows(), work)) {
                sorted.columns().forEach(c -> out.add(c.share()));
            }
            for (WindowCall call : node.calls()) {
                out.add(column(call, input, segments, frames, work));
            }
            return new DeviceTable(node.schema(), segments.rows(), out);
        } catch (RuntimeException e) {
            out.forEach(DeviceColumn::close);
            throw e;
        }
    }

    private static DeviceColumn column(WindowCall call, DeviceTable input, WindowSegments segments, WindowFrames frames,
            DeviceWork work) {
        WindowFunction f = call.function();
        WindowFrames.Bounds frame = f.usesFrame() ? frames.of(call.frame()) : null;
        if (RankingColumn.applies(f)) {
            return RankingColumn.of(call, segments, work);
        }
        if (PickedValueColumn.applies(f)) {
            return PickedValueColumn.of(call, input, segments, frame, work);
        }
        return FrameSumColumn.of(call, input, segments, frame, work);
    }
}
