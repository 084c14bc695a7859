package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import jcuda.driver.JCudaDriver;

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
    /** The three parts of an exact sum of squares ({@link VarianceAggregation}), each kept as OP_SUM_EXACT keeps a sum. */
    static final int OP_SQUARES_HIGH = 7;
    static final int OP_SQUARES_CROSS = 8;
    static final int OP_SQUARES_LOW = 9;
    /** The sums of DOUBLE values' deviations from their group's mean, and of their squares ({@link VarianceAggregation}). */
    static final int OP_DEVIATIONS = 10;
    /** A wide DECIMAL's sum in two parts ({@link WideDecimalAggregation}): of its lower words (unsigned) and of its upper words, each kept as OP_SUM_EXACT keeps a sum. */
    static final int OP_WIDE_LOW = 11;
    static final int OP_WIDE_HIGH = 12;
    /** A wide DECIMAL's MIN or MAX, second pass: the least or greatest lower word among the rows whose upper word the first pass (OP_MIN, OP_MAX) picked. */
    static final int OP_WIDE_MIN_LOW = 13;
    static final int OP_WIDE_MAX_LOW = 14;
    /** Words per aggregate in the kernel's spec table (accumulate.cu's AggSpec). */
    private static final int SPEC_LONGS = 10;

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

        /** A copy of the state of {@code groups} groups, owned by the caller. */
        DeviceState copy(int groups, DeviceWork work) {
            long bytes = Math.max(1, groups) * (long) Long.BYTES;
            List<DeviceBuffer> copies = new ArrayList<>();
            try {
                for (DeviceBuffer source : List.of(count, a, b)) {
                    DeviceBuffer copy = work.allocate(bytes, "aggregate state copy");
                    copies.add(copy);
                    JCudaDriver.cuMemcpyDtoDAsync(copy.pointer(), source.pointer(), bytes, work.stream().handle());
                }
                return new DeviceState(copies.get(0), copies.get(1), copies.get(2));
            } catch (RuntimeException e) {
                copies.forEach(DeviceBuffer::close);
                throw e;
            }
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
            case MIN, ANY_VALUE -> OP_MIN;  // ANY_VALUE: the least key of any order (KeyColumn.forAnyValue)
            case MAX -> OP_MAX;
            case SINGLE_VALUE -> OP_SINGLE_VALUE;
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, APPROX_COUNT_DISTINCT ->
                    throw new IllegalStateException(call + " is no single accumulation (VarianceAggregation), or runs on the CPU");
        };
    }

    /**
     * Accumulates {@code rows} rows into {@code groupCount} groups ({@code groupOfRow}, int32 per
     * row; null: one group) and returns each aggregate's state on the device, owned by the caller.
     * {@code args} holds each call's argument (null for COUNT(*)).
     */
    static List<DeviceState> run(List<AggCall> calls, List<KeyColumn> args, DeviceBuffer groupOfRow, int groupCount, int rows,
            DeviceWork work) {
        // Calls of one state (SUM(x) and AVG(x): q01 has two such pairs) accumulate it once; the later ones get a copy.
        List<Integer> ops = new ArrayList<>();
        List<KeyColumn> distinctArgs = new ArrayList<>();
        int[] stateOf = new int[calls.size()];
        for (int i = 0; i < calls.size(); i++) {
            int op = op(calls.get(i), args.get(i));
            int same = 0;
            while (same < ops.size() && !(ops.get(same) == op && sameArgument(distinctArgs.get(same), args.get(i)))) {
                same++;
            }
            if (same == ops.size()) {
                ops.add(op);
                distinctArgs.add(args.get(i));
            }
            stateOf[i] = same;
        }
        List<DeviceState> accumulated = run(ops, distinctArgs, Collections.nCopies(ops.size(), null), groupOfRow, groupCount, rows, work);
        List<DeviceState> states = new ArrayList<>();
        List<DeviceState> copies = new ArrayList<>();
        boolean[] given = new boolean[accumulated.size()];
        try {
            for (int i = 0; i < calls.size(); i++) {
                DeviceState state = accumulated.get(stateOf[i]);
                if (given[stateOf[i]]) {
                    state = state.copy(groupCount, work);
                    copies.add(state);
                }
                given[stateOf[i]] = true;
                states.add(state);
            }
            return states;
        } catch (RuntimeException e) {
            accumulated.forEach(DeviceState::close);
            copies.forEach(DeviceState::close);
            throw e;
        }
    }

    /** Whether two arguments (null: none, as of COUNT(*)) read the same values. */
    private static boolean sameArgument(KeyColumn x, KeyColumn y) {
        return x == null ? y == null : y != null && Arrays.equals(x.descriptor(), y.descriptor());
    }

    /**
     * As {@link #run(List, List, DeviceBuffer, int, int, DeviceWork)} for operations given as OP_
     * constants; {@code centers} holds, for each OP_DEVIATIONS, the OP_SUM_DOUBLE state of the
     * same argument and groups (its groups' means), for each OP_WIDE_MIN_LOW (MAX_LOW) the OP_MIN
     * (OP_MAX) state of the same argument and groups, null for the others.
     */
    static List<DeviceState> run(List<Integer> ops, List<KeyColumn> args, List<DeviceState> centers, DeviceBuffer groupOfRow,
            int groupCount, int rows, DeviceWork work) {
        List<DeviceState> states = new ArrayList<>();
        try {
            long[] specs = new long[ops.size() * SPEC_LONGS];
            for (int i = 0; i < ops.size(); i++) {
                KeyColumn arg = args.get(i);
                int op = ops.get(i);
                long stateBytes = Math.max(1, groupCount) * (long) Long.BYTES;
                DeviceBuffer count = work.allocateZeroed(stateBytes, "aggregate counts");
                DeviceBuffer a = null;
                DeviceBuffer b = null;
                try {
                    a = work.allocate(stateBytes, "aggregate state a");
                    // MIN (and SINGLE_VALUE's MIN) starts at the largest key, everything else at zero.
                    a.fill(op == OP_MIN || op == OP_SINGLE_VALUE || op == OP_WIDE_MIN_LOW ? (byte) 0xFF : 0, stateBytes, work.stream());
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
                DeviceState center = centers.get(i);
                boolean readsFirstPass = op == OP_DEVIATIONS || op == OP_WIDE_MIN_LOW || op == OP_WIDE_MAX_LOW;
                if (readsFirstPass != (center != null)) {
                    throw new IllegalArgumentException("OP_DEVIATIONS and OP_WIDE_MIN_LOW/MAX_LOW, and only they, read a first pass: op " + op);
                }
                int at = i * SPEC_LONGS;
                specs[at] = op;
                System.arraycopy(source, 0, specs, at + 1, 4);
                specs[at + 5] = count.address();
                specs[at + 6] = a.address();
                specs[at + 7] = b.address();
                specs[at + 8] = center == null ? 0 : center.count().address();
                specs[at + 9] = center == null ? 0 : center.a().address();
            }
            try (DeviceBuffer specBuffer = work.upload(specs, "aggregate specs")) {
                int grid = GridSize.strided(rows, work);
                if (groupOfRow == null) {
                    work.kernel(MODULE, "accumulate_all").launch(work.stream(), grid, GridSize.BLOCK, 0, specBuffer,
                            ops.size(), rows);
                } else {
                    long stateBytes = (long) groupCount * ops.size() * SHARED_BYTES_PER_GROUP;
                    GroupByTuning.Accumulator accumulator = GroupByTuning.accumulator(groupCount, stateBytes);
                    boolean shared = accumulator != GroupByTuning.Accumulator.GLOBAL;
                    work.kernel(MODULE, accumulator.kernel).launch(work.stream(), grid, GridSize.BLOCK, shared ? (int) stateBytes : 0,
                            specBuffer, ops.size(), groupOfRow, rows, groupCount);
                }
            }
            return states;
        } catch (RuntimeException e) {
            states.forEach(DeviceState::close);
            throw e;
        }
    }

    /**
     * The argument of COUNT(a, b, ...) over {@code columns}: a BOOLEAN column valid in the rows
     * where none of them is NULL (aggregate/accumulate.cu's all_valid); COUNT reads no value of
     * it. The caller owns it.
     */
    static DeviceColumn allValid(List<DeviceColumn> columns, int rows, DeviceWork work) {
        long[] validities = columns.stream().mapToLong(DeviceColumn::validityAddress).toArray();
        DeviceBuffer values = work.allocate(Math.max(1, rows), "COUNT of several columns: values (unread)");
        try (DeviceBuffer validityTable = work.upload(validities, "COUNT of several columns: validities")) {
            DeviceBuffer valid = work.allocate(Math.max(1, rows), "COUNT of several columns: validity");
            try {
                work.kernel(MODULE, "all_valid").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0, validityTable,
                        columns.size(), rows, valid);
                return new DeviceColumn(DataType.BOOLEAN, rows, values, valid, null);
            } catch (RuntimeException e) {
                valid.close();
                throw e;
            }
        } catch (RuntimeException e) {
            values.close();
            throw e;
        }
    }

    private static long[] download(DeviceBuffer b, int count, DeviceWork work) {
        return count == 0 ? new long[0] : work.downloadLongs(b, count);
    }
}
