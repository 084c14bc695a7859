package io.warpdb.exec.gpu.window;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, MIN and MAX: the argument's value at one sorted
 * position (window/pick.cu, the CPU's PickedValueEvaluator). Each position gets its source
 * position first (an offset away within the partition, a place in the frame, or the frame's
 * extreme by {@link FrameExtremes}), then one gather reads the values (a wide DECIMAL's 16
 * bytes too); a string result keeps the argument's codes and dictionary.
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
        StringDictionary dictionary = values.dictionary();
        Int128 constant = null;
        if (fallback instanceof Literal literal && isTextDefault(literal, call.type())) {
            dictionary = withEntry(dictionary, (String) literal.value());
            constant = new Int128().set(codeOf(dictionary, (String) literal.value()));
        } else if (fallback instanceof Literal literal && !literal.isNull()) {
            constant = deviceDefault(literal, call.type());
        }
        int defaultMode = defaults != null ? COLUMN_DEFAULT : constant != null ? CONSTANT_DEFAULT : NO_DEFAULT;
        DeviceBuffer out = work.allocate((long) rows * width, "window picked values");
        DeviceBuffer outValid = null;
        try {
            outValid = work.allocate(rows, "window picked validity");
            work.kernel(MODULE, "pick_values").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0, values.values(),
                    values.validity(), width, segments.sorted(), source, rows, defaultMode, constant == null ? 0L : constant.low,
                    constant == null ? 0L : constant.high, defaults == null ? null : defaults.values(),
                    defaults == null ? null : defaults.validity(), out, outValid);
            return new DeviceColumn(call.type(), rows, out, outValid, dictionary);
        } catch (RuntimeException e) {
            out.close();
            if (outValid != null) {
                outValid.close();
            }
            throw e;
        }
    }

    /**
     * Whether a LAG or LEAD default is a string constant that a VARCHAR result holds as it is (a
     * VARCHAR constant, or a CHAR one without trailing spaces to drop): its code in the values'
     * dictionary, with the entry added where it is missing.
     */
    static boolean isTextDefault(Literal constant, DataType type) {
        return constant.value() instanceof String text && type.kind() == TypeKind.VARCHAR
                && (constant.type().kind() == TypeKind.VARCHAR || text.equals(text.stripTrailing()));
    }

    /** The values' dictionary, with {@code text} appended when no entry holds it. */
    private static StringDictionary withEntry(StringDictionary dictionary, String text) {
        if (codeOf(dictionary, text) >= 0) {
            return dictionary;
        }
        List<String> entries = new ArrayList<>(dictionary.size() + 1);
        for (int code = 0; code < dictionary.size(); code++) {
            entries.add(dictionary.get(code));
        }
        entries.add(text);
        return dictionary.isUnique() ? StringDictionary.ofDistinct(entries) : StringDictionary.ofValues(entries.toArray(new String[0]));
    }

    /** The first code of {@code text} in {@code dictionary}, -1 if none. */
    private static int codeOf(StringDictionary dictionary, String text) {
        for (int code = 0; code < dictionary.size(); code++) {
            if (text.equals(dictionary.get(code))) {
                return code;
            }
        }
        return -1;
    }

    /**
     * A constant default's device value as the result type, in 128 bits (a wide DECIMAL's words;
     * other types' one word, sign-extended): a constant of the type as it is (booleans 0/1,
     * doubles' bits), an integer or a DECIMAL of no larger scale widened exactly (as the CPU's cast
     * would), an integer as DOUBLE; null when that needs more than widening (a string, digits
     * dropped, a value out of the type's range): such a call runs on the CPU.
     */
    static Int128 deviceDefault(Literal constant, DataType type) {
        Object v = constant.value();
        DataType from = constant.type();
        if (v instanceof Boolean b) {
            return type.kind() == TypeKind.BOOLEAN ? new Int128().set(b ? 1 : 0) : null;
        }
        if (v instanceof Double d) {
            return type.kind() == TypeKind.DOUBLE ? new Int128().set(Double.doubleToRawLongBits(d)) : null;
        }
        if (from.kind().isString()) {
            return null;
        }
        boolean wholeNumber = from.kind() == TypeKind.INTEGER || from.kind() == TypeKind.BIGINT;
        if (type.kind() == TypeKind.DECIMAL) {
            int fromScale = from.kind() == TypeKind.DECIMAL ? from.scale() : wholeNumber ? 0 : -1;
            if (fromScale < 0 || fromScale > type.scale()) {
                return null;
            }
            // An integer's or a narrow DECIMAL's unscaled Long, a wide DECIMAL's BigInteger.
            BigInteger value = v instanceof Long narrow ? BigInteger.valueOf(narrow) : (BigInteger) v;
            BigInteger unscaled = value.multiply(BigInteger.TEN.pow(type.scale() - fromScale));
            return unscaled.abs().compareTo(BigInteger.TEN.pow(type.precision())) < 0 ? new Int128().set(unscaled) : null;
        }
        if (!(v instanceof Long value)) {
            return null;
        }
        Long word = switch (type.kind()) {
            case INTEGER -> wholeNumber && (int) (long) value == value ? value : null;
            case BIGINT -> wholeNumber ? value : null;
            case DOUBLE -> wholeNumber && Math.abs(value) <= 1L << 53 ? Double.doubleToRawLongBits(value) : null;
            default -> from.kind() == type.kind() ? value : null;
        };
        return word == null ? null : new Int128().set(word);
    }
}
