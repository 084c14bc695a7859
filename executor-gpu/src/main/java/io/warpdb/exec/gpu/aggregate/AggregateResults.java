package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;

/**
 * Turns each group's accumulated state into the aggregate's value, on the host and by the CPU
 * accumulators' rules (core's value package): COUNT checked against the result type; exact SUM
 * and AVG finished by {@link ExactSums} (DOUBLE results by {@link ExactQuotients}, wide DECIMAL
 * SUMs as two words per group); DOUBLE sums
 * divided by the count; MIN/MAX decoded from ordered keys (strings as codes of their rank
 * dictionary), ANY_VALUE as MIN of them (strings by their codes); SINGLE_VALUE failing with 21000 for a group of several rows.
 */
final class AggregateResults {
    private static final long SIGN_BIT = Long.MIN_VALUE;

    private AggregateResults() {
    }

    static DeviceColumn column(AggCall call, KeyColumn arg, Accumulation.State state, DeviceWork work) {
        return arg == null ? column(call, null, 0, null, state, work)
                : column(call, arg.column().type(), arg.kind(), arg.keyDictionary(), state, work);
    }

    /**
     * The values of {@code call} from its state, over an argument of {@code argType} (null for
     * COUNT(*)) read as ordered keys of {@code argKind}; string MIN/MAX states hold ranks (ANY_VALUE's
     * codes) into {@code keyDictionary}.
     */
    static DeviceColumn column(AggCall call, DataType argType, int argKind, StringDictionary keyDictionary,
            Accumulation.State state, DeviceWork work) {
        int groups = state.count().length;
        DataType type = call.type();
        long[] values = new long[groups];
        boolean[] nulls = new boolean[groups];
        StringDictionary dictionary = null;
        switch (Accumulation.op(call, argType)) {
            case Accumulation.OP_COUNT_ROWS, Accumulation.OP_COUNT -> {
                for (int g = 0; g < groups; g++) {
                    values[g] = Decimals.checkFits(state.count()[g], type);
                }
            }
            case Accumulation.OP_SUM_DOUBLE -> {
                boolean average = call.function() == AggFunction.AVG;
                for (int g = 0; g < groups; g++) {
                    long n = state.count()[g];
                    nulls[g] = n == 0;
                    double sum = Double.longBitsToDouble(state.a()[g]);
                    values[g] = nulls[g] ? 0 : Double.doubleToRawLongBits(average ? sum / n : sum);
                }
            }
            case Accumulation.OP_SUM_EXACT -> {
                boolean average = call.function() == AggFunction.AVG;
                int inputScale = Decimals.scaleOf(argType);
                if (type.isWideDecimal()) {
                    return HostColumns.upload(type, wideSums(state, inputScale, type, nulls), nulls, null, work);
                }
                for (int g = 0; g < groups; g++) {
                    long n = state.count()[g];
                    nulls[g] = n == 0;
                    if (!nulls[g]) {
                        long high = state.b()[g];
                        long low = state.a()[g];
                        values[g] = type.kind() == TypeKind.DOUBLE
                                ? Double.doubleToRawLongBits(ExactQuotients.toDouble(high, low, inputScale, average ? n : 1))
                                : ExactSums.value(high, low, inputScale, n, average, type);
                    }
                }
            }
            default -> {
                boolean single = call.function() == AggFunction.SINGLE_VALUE;
                for (int g = 0; g < groups; g++) {
                    if (single && state.count()[g] > 1) {
                        throw new WarpException(SqlState.CARDINALITY_VIOLATION, "a scalar sub-query returned more than one row");
                    }
                    nulls[g] = single ? state.b()[g] == 0 : state.count()[g] == 0;
                    values[g] = nulls[g] ? 0 : decode(state.a()[g], argKind);
                }
                dictionary = keyDictionary;
            }
        }
        return HostColumns.upload(type, values, nulls, dictionary, work);
    }

    /** The SUMs of a wide DECIMAL type as two words per group, low then high ({@link ExactSums#wideValue}); NULL where no value was summed. */
    private static long[] wideSums(Accumulation.State state, int inputScale, DataType type, boolean[] nulls) {
        long[] words = new long[2 * nulls.length];
        Int128 sum = new Int128();
        for (int g = 0; g < nulls.length; g++) {
            nulls[g] = state.count()[g] == 0;
            if (!nulls[g]) {
                ExactSums.wideValue(state.b()[g], state.a()[g], inputScale, type, sum);
                words[2 * g] = sum.low;
                words[2 * g + 1] = sum.high;
            }
        }
        return words;
    }

    /** The physical value of an ordered key (sort/ordered_key.cuh); string keys are ranks. */
    static long decode(long key, int kind) {
        return switch (kind) {
            case KeyColumn.BOOL, KeyColumn.RANK, KeyColumn.CODE -> key;
            case KeyColumn.INT32, KeyColumn.INT64 -> key ^ SIGN_BIT;
            default -> (key & SIGN_BIT) != 0 ? key ^ SIGN_BIT : ~key;  // doubles: undo the IEEE trick
        };
    }
}
