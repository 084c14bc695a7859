package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP on the GPU, per group, by the group-by's
 * accumulation kernels ({@link Accumulation}), finished on the host.
 * <ul>
 * <li>Exact arguments (INTEGER, BIGINT, DECIMAL of up to 18 digits): the count, the sum and the sum
 * of squares are reduced exactly, the squares in three 128-bit parts (value = h * 2^32 + l, see
 * aggregate/state.cuh), so that no 64-bit value and no row count up to 2^31 overflows them; the
 * host finishes {@code M2 = (n * sumsq - sum^2) / n} exactly (in 128-bit integers where they fit, else in
 * decimals), rounds it to a double and
 * divides it as the CPU divides its M2: the CPU's Welford accumulator computes the same in doubles
 * (the two agree but for the last bits).</li>
 * <li>DOUBLE arguments: two passes, as the corrected two-pass algorithm (Chan, Golub and LeVeque)
 * has it: the first sums the values into each group's mean m, the second sums {@code (x - m)^2}
 * and {@code x - m}, and {@code M2 = sum (x - m)^2 - (sum (x - m))^2 / n} removes the first order
 * of the mean's rounding error. No sum of squares cancels, so the result is as sound as the CPU's
 * Welford recurrence (and equals it to rounding); NaN and infinities give NaN as there.</li>
 * </ul>
 * Groups of too few values are NULL, as on the CPU.
 */
final class VarianceAggregation {
    /** Digits of the exact quotient before its rounding to a double: far more than a double's 17. */
    private static final MathContext QUOTIENT_DIGITS = new MathContext(40);
    /** The first pass's operations over an exact argument: its sum and the three parts of its sum of squares. */
    private static final List<Integer> EXACT_OPS = List.of(Accumulation.OP_SUM_EXACT, Accumulation.OP_SQUARES_HIGH,
            Accumulation.OP_SQUARES_CROSS, Accumulation.OP_SQUARES_LOW);

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
        boolean numeric = arg.kind().isExactNumeric() && !arg.isWideDecimal() || arg.kind() == TypeKind.DOUBLE;
        return numeric && result.kind() == TypeKind.DOUBLE;
    }

    /**
     * The result column of each of {@code calls} (all variances) over {@code rows} rows, each
     * call's argument in {@code args}, in {@code groups} groups ({@code groupOfRow}: int32 per row;
     * null: one group). The arguments stay the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, List<KeyColumn> args, DeviceBuffer groupOfRow, int groups, int rows,
            DeviceWork work) {
        List<Integer> ops = new ArrayList<>();
        List<KeyColumn> opArgs = new ArrayList<>();
        int[] firstOp = new int[calls.size()];
        for (int i = 0; i < calls.size(); i++) {
            firstOp[i] = ops.size();
            KeyColumn arg = args.get(i);
            List<Integer> callOps = isDouble(arg) ? List.of(Accumulation.OP_SUM_DOUBLE) : EXACT_OPS;
            ops.addAll(callOps);
            callOps.forEach(op -> opArgs.add(arg));
        }
        List<Accumulation.DeviceState> sums = Accumulation.run(ops, opArgs, nulls(ops.size()), groupOfRow, groups, rows, work);
        List<Accumulation.DeviceState> deviations = List.of();
        DeviceColumn[] out = new DeviceColumn[calls.size()];
        try {
            List<Integer> doubles = new ArrayList<>();
            List<Accumulation.DeviceState> means = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                if (isDouble(args.get(i))) {
                    doubles.add(i);
                    means.add(sums.get(firstOp[i]));
                }
            }
            if (!doubles.isEmpty()) {
                deviations = Accumulation.run(doubles.stream().map(i -> Accumulation.OP_DEVIATIONS).toList(),
                        doubles.stream().map(args::get).toList(), means, groupOfRow, groups, rows, work);
            }
            for (int i = 0, d = 0; i < calls.size(); i++) {
                double[] m2 = new double[groups];
                long[] counts;
                if (isDouble(args.get(i))) {
                    Accumulation.State state = deviations.get(d++).download(groups, work);
                    counts = state.count();
                    for (int g = 0; g < groups; g++) {
                        m2[g] = doubleDeviations(state.count()[g], state.a()[g], state.b()[g]);
                    }
                } else {
                    counts = exactDeviations(sums.subList(firstOp[i], firstOp[i] + EXACT_OPS.size()), args.get(i).column().type(),
                            groups, m2, work);
                }
                out[i] = column(calls.get(i), counts, m2, work);
            }
            return List.of(out);
        } catch (RuntimeException e) {
            DeviceColumn.closeAll(out);
            throw e;
        } finally {
            sums.forEach(Accumulation.DeviceState::close);
            deviations.forEach(Accumulation.DeviceState::close);
        }
    }

    private static boolean isDouble(KeyColumn arg) {
        return arg.column().type().kind() == TypeKind.DOUBLE;
    }

    private static List<Accumulation.DeviceState> nulls(int n) {
        return Collections.nCopies(n, null);
    }

    /** M2 of one group of DOUBLE values from the sums of their deviations from the first pass's mean, and of their squares. */
    private static double doubleDeviations(long n, long squaresBits, long deviationsBits) {
        if (n == 0) {
            return 0;
        }
        double offset = Double.longBitsToDouble(deviationsBits);
        // Never below 0 where rounding would make it so; NaN stays NaN.
        return Math.max(0.0, Double.longBitsToDouble(squaresBits) - offset * offset / n);
    }

    /**
     * Per group, the exact {@code (n * sumsq - sum^2) / n}, as a double, into {@code m2} (M2 in the
     * argument's unit), from the states of {@link #EXACT_OPS}; returns the counts.
     */
    private static long[] exactDeviations(List<Accumulation.DeviceState> states, DataType argType, int groups, double[] m2,
            DeviceWork work) {
        Accumulation.State sums = states.get(0).download(groups, work);
        Accumulation.State high = states.get(1).download(groups, work);
        Accumulation.State cross = states.get(2).download(groups, work);
        Accumulation.State low = states.get(3).download(groups, work);
        int scale = argType.kind() == TypeKind.DECIMAL ? argType.scale() : 0;
        Int128 deviations128 = new Int128();
        Int128 term = new Int128();
        for (int g = 0; g < groups; g++) {
            long n = sums.count()[g];
            if (n == 0) {
                continue;
            }
            if (deviationsIn128Bits(n, high, cross, low, sums, g, deviations128, term)) {
                m2[g] = Int128.toDouble(deviations128.high, deviations128.low, 2 * scale) / n;
                continue;
            }
            // sum of v^2 = sum h^2 * 2^64 + sum h*l * 2^33 + sum l^2 (state.cuh)
            BigInteger squares = Int128.toBigInteger(high.b()[g], high.a()[g]).shiftLeft(64)
                    .add(Int128.toBigInteger(cross.b()[g], cross.a()[g]).shiftLeft(33))
                    .add(Int128.toBigInteger(low.b()[g], low.a()[g]));
            BigInteger sum = Int128.toBigInteger(sums.b()[g], sums.a()[g]);
            BigInteger count = BigInteger.valueOf(n);
            BigDecimal deviations = new BigDecimal(count.multiply(squares).subtract(sum.multiply(sum)), 2 * scale);
            m2[g] = deviations.divide(new BigDecimal(count), QUOTIENT_DIGITS).doubleValue();
        }
        return sums.count();
    }

    /**
     * Whether {@code n * sumsq - sum^2} of group {@code g} fits 128 bits, and then its value in
     * {@code out}: the common case (arguments well below 2^40). BigDecimal arithmetic, kept for the
     * rest, took 4 us a group (q39 of TPC-DS SF 10: 2 s for 510 K groups). {@code term} is scratch.
     */
    private static boolean deviationsIn128Bits(long n, Accumulation.State high, Accumulation.State cross, Accumulation.State low,
            Accumulation.State sums, int g, Int128 out, Int128 term) {
        // sum of v^2 = sum h^2 * 2^64 + sum h*l * 2^33 + sum l^2 (state.cuh); sum h^2 >= 0 must fit 63 bits.
        if (high.b()[g] != 0 || high.a()[g] < 0) {
            return false;
        }
        try {
            out.set(high.a()[g], 0);
            term.set(cross.b()[g], cross.a()[g]).multiply(0, 1L << 33);
            out.add(term.high, term.low).add(low.b()[g], low.a()[g]).multiply(0, n);
            term.set(sums.b()[g], sums.a()[g]).multiply(sums.b()[g], sums.a()[g]);
            out.subtract(term.high, term.low);
            return true;
        } catch (WarpException needsMoreBits) {
            return false;
        }
    }

    /** The variance (or its root) per group from M2 and the count, NULL where the divisor is not positive (as on the CPU). */
    private static DeviceColumn column(AggCall call, long[] counts, double[] m2, DeviceWork work) {
        boolean sample = call.function() == AggFunction.VAR_SAMP || call.function() == AggFunction.STDDEV_SAMP;
        boolean root = call.function() == AggFunction.STDDEV_POP || call.function() == AggFunction.STDDEV_SAMP;
        int groups = m2.length;
        long[] values = new long[groups];
        boolean[] nulls = new boolean[groups];
        for (int g = 0; g < groups; g++) {
            long divisor = sample ? counts[g] - 1 : counts[g];
            nulls[g] = divisor <= 0;
            if (!nulls[g]) {
                double variance = m2[g] / divisor;
                values[g] = Double.doubleToRawLongBits(root ? Math.sqrt(variance) : variance);
            }
        }
        return HostColumns.upload(call.type(), values, nulls, null, work);
    }
}
