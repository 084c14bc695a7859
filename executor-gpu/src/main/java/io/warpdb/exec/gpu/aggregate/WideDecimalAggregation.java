package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * SUM, AVG, MIN and MAX (ANY_VALUE as MIN) of a wide DECIMAL (more than 18 digits, 128 bits a value: a signed upper
 * word and an unsigned lower one) on the GPU, per group, in two states each of the group-by's
 * accumulation kernels ({@link Accumulation}, aggregate/state.cuh), finished on the host.
 * <ul>
 * <li>SUM and AVG: the sums of the lower words and of the upper words, apart (OP_WIDE_LOW,
 * OP_WIDE_HIGH), each into 128 bits that no row count below 2^63 overflows, so neither the order
 * of the atomics nor a partial sum beyond 128 bits loses a carry. Their total (upper * 2^64 +
 * lower, {@link Int128#setWordSums}) is finished as the CPU's wide-sum accumulator finishes its sum: 22003 beyond 128 bits (the
 * CPU fails as soon as a partial sum outgrows them, in an order of its own), a SUM at its type's
 * scale and 22003 beyond its precision, an AVG the correctly rounded DOUBLE of the sum over the count.</li>
 * <li>MIN and MAX: the least (greatest) upper word first (OP_MIN, OP_MAX over the upper words as
 * ordered keys), then the least (greatest) lower word among the rows that have it (OP_WIDE_MIN_LOW,
 * OP_WIDE_MAX_LOW, which read the first state as OP_DEVIATIONS reads its means).</li>
 * </ul>
 */
final class WideDecimalAggregation {
    private WideDecimalAggregation() {
    }

    /** Whether the GPU computes {@code call} over a wide DECIMAL argument. */
    static boolean applies(AggCall call) {
        return !call.distinct() && switch (call.function()) {
            case SUM, AVG, MIN, MAX, ANY_VALUE -> true;
            default -> false;
        };
    }

    /** Whether {@code call} is one of {@link #applies} over the wide DECIMAL argument {@code arg} (null: none). */
    static boolean applies(AggCall call, KeyColumn arg) {
        return arg != null && arg.column().type().isWideDecimal() && applies(call);
    }

    /**
     * The result column of each of {@code calls} (all {@link #applies}) over {@code rows} rows, each
     * call's argument in {@code args} ({@link KeyColumn#forAccumulation}: the upper words as ordered
     * keys), in {@code groups} groups ({@code groupOfRow}: int32 per row; null: one group). The
     * arguments stay the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, List<KeyColumn> args, DeviceBuffer groupOfRow, int groups, int rows,
            DeviceWork work) {
        List<Integer> firstOps = new ArrayList<>();
        for (AggCall call : calls) {
            firstOps.add(switch (call.function()) {
                case MIN, ANY_VALUE -> Accumulation.OP_MIN;
                case MAX -> Accumulation.OP_MAX;
                default -> Accumulation.OP_WIDE_LOW;
            });
        }
        List<Accumulation.DeviceState> first = Accumulation.run(firstOps, args, Collections.nCopies(calls.size(), null), groupOfRow, groups, rows, work);
        List<Accumulation.DeviceState> second = List.of();
        DeviceColumn[] out = new DeviceColumn[calls.size()];
        try {
            List<Integer> secondOps = new ArrayList<>();
            List<Accumulation.DeviceState> centers = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                AggFunction f = calls.get(i).function();
                boolean picks = picks(f);
                secondOps.add(f == AggFunction.MAX ? Accumulation.OP_WIDE_MAX_LOW : picks ? Accumulation.OP_WIDE_MIN_LOW
                        : Accumulation.OP_WIDE_HIGH);
                centers.add(picks ? first.get(i) : null);
            }
            second = Accumulation.run(secondOps, args, centers, groupOfRow, groups, rows, work);
            for (int i = 0; i < calls.size(); i++) {
                Accumulation.State a = first.get(i).download(groups, work);
                Accumulation.State b = second.get(i).download(groups, work);
                AggCall call = calls.get(i);
                out[i] = picks(call.function()) ? picked(call, a, b, groups, work)
                        : summed(call, Decimals.scaleOf(args.get(i).column().type()), a, b, groups, work);
            }
            return List.of(out);
        } catch (RuntimeException e) {
            DeviceColumn.closeAll(out);
            throw e;
        } finally {
            first.forEach(Accumulation.DeviceState::close);
            second.forEach(Accumulation.DeviceState::close);
        }
    }

    /** Whether {@code f} picks one of the values (ANY_VALUE as MIN) rather than summing them. */
    private static boolean picks(AggFunction f) {
        return f == AggFunction.MIN || f == AggFunction.MAX || f == AggFunction.ANY_VALUE;
    }

    /** MIN or MAX: the picked upper word (an ordered key) and lower word per group, NULL where no value was seen. */
    private static DeviceColumn picked(AggCall call, Accumulation.State upper, Accumulation.State lower, int groups, DeviceWork work) {
        boolean[] nulls = new boolean[groups];
        long[] values = new long[2 * groups];
        for (int g = 0; g < groups; g++) {
            nulls[g] = upper.count()[g] == 0;
            if (!nulls[g]) {
                values[2 * g] = lower.a()[g];
                values[2 * g + 1] = AggregateResults.decode(upper.a()[g], KeyColumn.INT64);
            }
        }
        return HostColumns.upload(call.type(), values, nulls, null, work);
    }

    /** SUM or AVG from the sums of the lower and of the upper words. */
    private static DeviceColumn summed(AggCall call, int inputScale, Accumulation.State lower, Accumulation.State upper, int groups,
            DeviceWork work) {
        DataType type = call.type();
        boolean average = call.function() == AggFunction.AVG;
        boolean[] nulls = new boolean[groups];
        long[] values = new long[average ? groups : 2 * groups];
        Int128 sum = new Int128();
        for (int g = 0; g < groups; g++) {
            long n = lower.count()[g];
            nulls[g] = n == 0;
            if (nulls[g]) {
                continue;
            }
            sum.setWordSums(upper.b()[g], upper.a()[g], lower.b()[g], lower.a()[g]);
            if (average) {
                values[g] = Double.doubleToRawLongBits(ExactQuotients.toDouble(sum.high, sum.low, inputScale, n));
            } else {
                ExactSums.wideValue(sum.high, sum.low, inputScale, type, sum);
                values[2 * g] = sum.low;
                values[2 * g + 1] = sum.high;
            }
        }
        return HostColumns.upload(type, values, nulls, null, work);
    }
}
