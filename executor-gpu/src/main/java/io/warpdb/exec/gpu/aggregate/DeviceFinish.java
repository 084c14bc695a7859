package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the aggregates' per-group states into result columns on the device (aggregate/finish.cu),
 * so that a GROUP BY's results stay there: millions of groups would otherwise travel to the host
 * and back. The kernel follows {@link AggregateResults}'s rules; an aggregate it cannot finish
 * exactly (an exact sum beyond 64 bits, a value out of the result's range, SINGLE_VALUE over
 * several rows) or whose result it does not compute (an exact sum or average as DOUBLE) is
 * finished by {@link AggregateResults} on the host, which gives the CPU's value or error. A SUM
 * typed DECIMAL(38, s) is the 128-bit sum itself, written as the wide value it is.
 */
final class DeviceFinish {
    private static final String MODULE = "aggregate/finish";
    /** Words per aggregate in the kernel's spec table (finish.cu's FinishSpec). */
    private static final int SPEC_LONGS = 12;
    private static final long FIT_INT32 = 1;
    private static final long ROUND_HALF_UP = 2;

    private DeviceFinish() {
    }

    /** The result column of each aggregate over {@code groups} groups; the states stay the caller's. */
    static List<DeviceColumn> columns(List<AggCall> calls, List<KeyColumn> args, List<Accumulation.DeviceState> states, int groups,
            DeviceWork work) {
        DeviceColumn[] out = new DeviceColumn[calls.size()];
        try {
            List<Integer> onDevice = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                if (groups > 0 && onDevice(calls.get(i), args.get(i))) {
                    onDevice.add(i);
                    out[i] = resultColumn(calls.get(i), args.get(i), groups, work);
                }
            }
            int[] needsHost = finishOnDevice(calls, args, states, groups, onDevice, out, work);
            for (int j = 0; j < onDevice.size(); j++) {
                if (needsHost[j] != 0) {
                    int i = onDevice.get(j);
                    out[i].close();
                    out[i] = null;
                }
            }
            for (int i = 0; i < calls.size(); i++) {
                if (out[i] == null) {
                    out[i] = AggregateResults.column(calls.get(i), args.get(i), states.get(i).download(groups, work), work);
                }
            }
            return List.of(out);
        } catch (RuntimeException e) {
            DeviceColumn.closeAll(out);
            throw e;
        }
    }

    /** An empty result column of {@code groups} rows with validity, for the kernel to fill. */
    private static DeviceColumn resultColumn(AggCall call, KeyColumn arg, int groups, DeviceWork work) {
        DataType type = call.type();
        DeviceBuffer values = work.allocate((long) groups * DeviceColumn.width(type), "aggregate values");
        try {
            return new DeviceColumn(type, groups, values, work.allocate(groups, "aggregate validity"), arg == null ? null : arg.keyDictionary());
        } catch (RuntimeException e) {
            values.close();
            throw e;
        }
    }

    /**
     * Whether the kernel computes this aggregate's result: all but exact sums and averages as DOUBLE,
     * and of the wide DECIMAL results only a SUM's of 38 digits at its argument's scale (the 128-bit
     * sum as it is).
     */
    private static boolean onDevice(AggCall call, KeyColumn arg) {
        DataType type = call.type();
        if (type.isWideDecimal()) {
            return call.function() == AggFunction.SUM && type.precision() == DataType.MAX_WIDE_DECIMAL_PRECISION
                    && Decimals.scaleOf(arg.column().type()) == type.scale();
        }
        return Accumulation.op(call, arg) != Accumulation.OP_SUM_EXACT || type.kind() != TypeKind.DOUBLE;
    }

    /**
     * Launches the kernel for the aggregates {@code onDevice} into their columns in {@code out};
     * returns, per aggregate, whether the host must finish it after all (a small copy that waits
     * for the kernel).
     */
    private static int[] finishOnDevice(List<AggCall> calls, List<KeyColumn> args, List<Accumulation.DeviceState> states, int groups,
            List<Integer> onDevice, DeviceColumn[] out, DeviceWork work) {
        if (onDevice.isEmpty()) {
            return new int[0];
        }
        long[] specs = new long[onDevice.size() * SPEC_LONGS];
        for (int j = 0; j < onDevice.size(); j++) {
            int i = onDevice.get(j);
            AggCall call = calls.get(i);
            KeyColumn arg = args.get(i);
            DataType type = call.type();
            Accumulation.DeviceState state = states.get(i);
            int at = j * SPEC_LONGS;
            specs[at] = Accumulation.op(call, arg);
            specs[at + 1] = arg == null ? 0 : arg.kind();
            specs[at + 2] = call.function() == AggFunction.AVG ? 1 : 0;
            specs[at + 3] = arg == null ? 0 : Decimals.scaleOf(arg.column().type());
            specs[at + 4] = Decimals.scaleOf(type);
            specs[at + 5] = (type.kind() == TypeKind.INTEGER ? FIT_INT32 : 0) | (type.kind() == TypeKind.DECIMAL ? ROUND_HALF_UP : 0);
            specs[at + 6] = DeviceColumn.width(type);
            specs[at + 7] = state.count().address();
            specs[at + 8] = state.a().address();
            specs[at + 9] = state.b().address();
            specs[at + 10] = out[i].values().address();
            specs[at + 11] = out[i].validity().address();
        }
        try (DeviceBuffer specBuffer = work.upload(specs, "aggregate finish specs");
                DeviceBuffer needsHost = work.upload(new int[onDevice.size()], "aggregate finish flags")) {
            work.kernel(MODULE, "finish_groups").launch(work.stream(), GridSize.strided(groups, work), GridSize.BLOCK, 0, specBuffer,
                    onDevice.size(), groups, needsHost);
            return work.downloadInts(needsHost, onDevice.size());
        }
    }
}
