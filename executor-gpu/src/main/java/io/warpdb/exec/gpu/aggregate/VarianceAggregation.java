package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.ExactSums;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP of exact values on the GPU: per group the count,
 * the sum and the sum of squares are reduced exactly in 128 bits (the variance call's own state is
 * the sum of squares, {@link Accumulation#OP_SUM_SQUARES}; a SUM of the same argument is
 * accumulated beside it), and the host finishes {@code (n * sumsq - sum^2) / (n * divisor)} in exact
 * decimals, rounded once to a double: the correctly rounded value of what the CPU's Welford
 * accumulator computes in doubles (the two agree but for the last bits), NULL for groups of too few
 * values as there. Arguments are INTEGER or DECIMAL of at most 9 digits, whose squares (below 2^62)
 * cannot carry a sum of 2^31 rows past 128 bits; DOUBLE arguments stay on the CPU, whose running
 * mean in row order the GPU's unordered sums would not reproduce.
 */
final class VarianceAggregation {
    /** Digits of the exact quotient before its rounding to a double: far more than a double's 17. */
    private static final MathContext QUOTIENT_DIGITS = new MathContext(40);
    private static final int MAX_ARGUMENT_PRECISION = 9;

    private VarianceAggregation() {
    }

    static boolean isVariance(AggCall call) {
        return switch (call.function()) {
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> true;
            default -> false;
        };
    }

    /** Whether the GPU computes a variance of {@code arg} typed {@code result}. */
    static boolean supports(DataType arg, DataType result) {
        boolean narrowExact = arg.kind() == TypeKind.INTEGER
                || arg.kind() == TypeKind.DECIMAL && arg.precision() <= MAX_ARGUMENT_PRECISION;
        return narrowExact && result.kind() == TypeKind.DOUBLE;
    }

    /** {@code calls} followed by a SUM of each variance call's argument, in order: the states {@link #columns} reads. */
    static List<AggCall> withSums(List<AggCall> calls) {
        List<AggCall> out = new ArrayList<>(calls);
        for (AggCall call : calls) {
            if (isVariance(call)) {
                out.add(new AggCall(AggFunction.SUM, call.args(), false, DataType.BIGINT, call.name() + "_sum"));
            }
        }
        return out;
    }

    /**
     * The result column of each of {@code calls} from the states of {@link #withSums}'s calls
     * (arguments and states in that order, the sums after {@code calls}); the others are finished by
     * {@link DeviceFinish}. The states stay the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, List<KeyColumn> args, List<Accumulation.DeviceState> states, int groups,
            DeviceWork work) {
        List<Integer> others = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            if (!isVariance(calls.get(i))) {
                others.add(i);
            }
        }
        DeviceColumn[] out = new DeviceColumn[calls.size()];
        try {
            List<DeviceColumn> finished = DeviceFinish.columns(others.stream().map(calls::get).toList(),
                    others.stream().map(args::get).toList(), others.stream().map(states::get).toList(), groups, work);
            for (int j = 0; j < others.size(); j++) {
                out[others.get(j)] = finished.get(j);
            }
            int sum = calls.size();
            for (int i = 0; i < calls.size(); i++) {
                if (out[i] == null) {
                    out[i] = column(calls.get(i), args.get(i).column().type(), states.get(i).download(groups, work),
                            states.get(sum++).download(groups, work), work);
                }
            }
            return List.of(out);
        } catch (RuntimeException e) {
            for (DeviceColumn c : out) {
                if (c != null) {
                    c.close();
                }
            }
            throw e;
        }
    }

    /** The variance (or its root) per group from the exact sums of squares and of values. */
    static DeviceColumn column(AggCall call, DataType argType, Accumulation.State squares, Accumulation.State sums, DeviceWork work) {
        boolean sample = call.function() == AggFunction.VAR_SAMP || call.function() == AggFunction.STDDEV_SAMP;
        boolean root = call.function() == AggFunction.STDDEV_POP || call.function() == AggFunction.STDDEV_SAMP;
        int scale = argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0;
        int groups = squares.count().length;
        long[] values = new long[groups];
        boolean[] nulls = new boolean[groups];
        for (int g = 0; g < groups; g++) {
            long n = squares.count()[g];
            long divisor = sample ? n - 1 : n;
            nulls[g] = divisor <= 0;
            if (!nulls[g]) {
                BigDecimal sumOfSquares = ExactSums.toBigDecimal(squares.b()[g], squares.a()[g], 2 * scale);
                BigDecimal sum = ExactSums.toBigDecimal(sums.b()[g], sums.a()[g], scale);
                BigDecimal count = BigDecimal.valueOf(n);
                BigDecimal deviations = count.multiply(sumOfSquares).subtract(sum.multiply(sum));
                double variance = deviations.divide(count.multiply(BigDecimal.valueOf(divisor)), QUOTIENT_DIGITS).doubleValue();
                values[g] = Double.doubleToRawLongBits(root ? Math.sqrt(variance) : variance);
            }
        }
        return HostColumns.upload(call.type(), values, nulls, null, work);
    }
}
