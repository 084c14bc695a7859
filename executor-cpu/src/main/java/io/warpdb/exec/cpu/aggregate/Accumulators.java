package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import java.util.Arrays;
import java.util.List;

/** Creates the accumulator of an aggregate call, and the array growth the accumulators share. */
public final class Accumulators {
    private Accumulators() {
    }

    /**
     * The accumulator for {@code call} over arguments of types {@code argTypes} (none for COUNT(*),
     * one or more for COUNT, one for the others).
     */
    public static Accumulator create(AggCall call, List<DataType> argTypes) {
        DataType argType = argTypes.isEmpty() ? null : argTypes.get(0);
        DataType type = call.type();
        AggFunction function = call.function();
        Accumulator plain = switch (function) {
            case COUNT_STAR -> new CountAccumulator(true, type);
            case COUNT -> new CountAccumulator(false, type);
            case APPROX_COUNT_DISTINCT -> new ApproxDistinctAccumulator(type, argType);
            case SUM, AVG -> {
                boolean average = function == AggFunction.AVG;
                if (argType.kind() == TypeKind.DOUBLE) {
                    yield new DoubleSumAccumulator(average);
                }
                if (!argType.kind().isExactNumeric()) {
                    throw new WarpException(SqlState.DATATYPE_MISMATCH, function + " does not apply to " + argType.sqlName());
                }
                if (argType.isWideDecimal()) {
                    yield new WideSumAccumulator(average, argType.scale(), type);
                }
                yield new ExactSumAccumulator(average, Decimals.scaleOf(argType), type);
            }
            case MIN, MAX, ANY_VALUE -> new MinMaxAccumulator(function, argType);
            case SINGLE_VALUE -> new SingleValueAccumulator(argType);
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> {
                if (!argType.kind().isNumeric()) {
                    throw new WarpException(SqlState.DATATYPE_MISMATCH, function + " does not apply to " + argType.sqlName());
                }
                yield new VarianceAccumulator(function);
            }
        };
        // MIN, MAX and ANY_VALUE over the distinct values are the same over all of them.
        boolean needsDistinct = call.distinct() && function != AggFunction.MIN && function != AggFunction.MAX
                && function != AggFunction.ANY_VALUE
                && function != AggFunction.SINGLE_VALUE && function != AggFunction.COUNT_STAR;
        return needsDistinct ? new DistinctAccumulator(plain, argTypes) : plain;
    }

    static long[] grow(long[] a, int size) {
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }

    static double[] grow(double[] a, int size) {
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }

    static boolean[] grow(boolean[] a, int size) {
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }

    static <T> T[] grow(T[] a, int size) {
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }
}
