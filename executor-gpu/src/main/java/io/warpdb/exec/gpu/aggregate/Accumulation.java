package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the aggregates' accumulation on the device (aggregate/accumulate.cu): per group, a count
 * and two 64-bit words whose meaning depends on the operation (see the OP_ constants there),
 * left on the device for {@link DeviceFinish}, or brought to the host for {@link AggregateResults}.
 */
final class Accumulation {
    /** State words per group and aggregate (count, a, b), in bytes. */
    private static final int SHARED_BYTES_PER_GROUP = 3 * Long.BYTES;

    static final int OP_COUNT_ROWS = 0;
    static final int OP_COUNT = 1;
    static final int OP_SUM_EXACT = 2;
    static final int OP_SUM_DOUBLE = 3;
    static final int OP_MIN = 4;
    static final int OP_MAX = 5;
    static final int OP_SINGLE_VALUE = 6;
    /** The exact sum of squares of a variance ({@link VarianceAggregation}), kept as OP_SUM_EXACT keeps a sum. */
    static final int OP_SUM_SQUARES = 7;

    private static final String MODULE = "aggregate/accumulate";

    /** Per group of one aggregate, on the host: the count and the words a and b. */
    record State(long[] count, long[] a, long[] b) {
    }

    /** Per group of one aggregate, on the device: the count and the words a and b (owned). */
    record DeviceState(DeviceBuffer count, DeviceBuffer a, DeviceBuffer b) implements AutoCloseable {
        /** The state of {@code groups} groups, copied to the host. */
        State download(int groups, DeviceWork work) {
            return new State(Accumulation.download(count, groups, work), Accumulation.download(a, groups, work),
                    Accumulation.download(b, groups, work));
        }

        @Override
        public void close() {
            count.close();
            a.close();
            b.close();
        }
    }

    private Accumulation() {
    }

    static int op(AggCall call, KeyColumn arg) {
        return op(call, arg == null ? null : arg.column().type());
    }

    /** The operation accumulating {@code call} over an argument of {@code argType} (null for COUNT(*)). */
    static int op(AggCall call, DataType argType) {
        return switch (call.function()) {
            case COUNT_STAR -> OP_COUNT_ROWS;
            case COUNT -> OP_COUNT;
            case SUM, AVG -> argType.kind() == TypeKind.DOUBLE ? OP_SUM_DOUBLE : OP_SUM_EXACT;
            case MIN -> OP_MIN;
            case MAX -> OP_MAX;
            case SINGLE_VALUE -> OP_SINGLE_VALUE;
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> OP_SUM_SQUARES;
            case APPROX_COUNT_DISTINCT -> throw new IllegalStateException(call + " runs on the CPU (GpuAggregate.supports refuses it)");
        };
    }

    /**
     * Accumulates {@code rows} rows into {@code groupCount} groups ({@code groups} null: one group)
     * and returns each aggregate's state on the device, owned by the caller. {@code args} holds
     * each call's argument (null for COUNT(*)).
     */
    static List<DeviceState> run(List<AggCall> calls, List<KeyColumn> args, Groups groups, int groupCount, int rows, DeviceWork work) {
        List<DeviceState> states = new ArrayList<>();
        try {
            long[] specs = new long[calls.size() * 8];
            for (int i = 0; i < calls.size(); i++) {
                KeyColumn arg = args.get(i);
                int op = op(calls.get(i), arg);
                long stateBytes = Math.max(1, groupCount) * (long) Long.BYTES;
                DeviceBuffer count = work.allocateZeroed(stateBytes, "aggregate counts");
                DeviceBuffer a = null;
                DeviceBuffer b = null;
                try {
                    a = work.allocate(stateBytes, "aggregate state a");
                    // MIN (and SINGLE_VALUE's MIN) starts at the largest key, everything else at zero.
                    a.fill(op == OP_MIN || op == OP_SINGLE_VALUE ? (byte) 0xFF : 0, stateBytes, work.stream());
                    b = work.allocateZeroed(stateBytes, "aggregate state b");
                } catch (RuntimeException e) {
                    count.close();
                    if (a != null) {
                        a.close();
                    }
                    throw e;
                }
                DeviceState state = new DeviceState(count, a, b);
                states.add(state);
                long[] source = arg == null ? new long[4] : arg.descriptor();
                specs[i * 8] = op;
                System.arraycopy(source, 0, specs, i * 8 + 1, 4);
                specs[i * 8 + 5] = count.address();
                specs[i * 8 + 6] = a.address();
                specs[i * 8 + 7] = b.address();
            }
            try (DeviceBuffer specBuffer = work.upload(specs, "aggregate specs")) {
                int grid = GridSize.strided(rows, work);
                if (groups == null) {
                    work.kernel(MODULE, "accumulate_all").launch(work.stream(), grid, GridSize.BLOCK, 0, specBuffer,
                            calls.size(), rows);
                } else {
                    long stateBytes = (long) groupCount * calls.size() * SHARED_BYTES_PER_GROUP;
                    GroupByTuning.Accumulator accumulator = GroupByTuning.accumulator(groupCount, stateBytes);
                    boolean shared = accumulator != GroupByTuning.Accumulator.GLOBAL;
                    work.kernel(MODULE, accumulator.kernel).launch(work.stream(), grid, GridSize.BLOCK, shared ? (int) stateBytes : 0,
                            specBuffer, calls.size(), groups.groupOfRow(), rows, groupCount);
                }
            }
            return states;
        } catch (RuntimeException e) {
            states.forEach(DeviceState::close);
            throw e;
        }
    }

    private static long[] download(DeviceBuffer b, int count, DeviceWork work) {
        return count == 0 ? new long[0] : work.downloadLongs(b, count);
    }
}
