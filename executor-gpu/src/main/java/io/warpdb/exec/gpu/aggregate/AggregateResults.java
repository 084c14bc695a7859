package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Turns each group's accumulated state into the aggregate's value, on the host and exactly as
 * the CPU accumulators do: COUNT checked against the result type; exact SUM at the result scale
 * and AVG divided with HALF_UP (DECIMAL) or truncation (integers), both failing with 22003 when
 * the value does not fit; DOUBLE results from the sum; MIN/MAX decoded from ordered keys (strings
 * as codes of their rank dictionary); SINGLE_VALUE failing with 21000 for a group of several rows.
 */
final class AggregateResults {
    private static final long SIGN_BIT = Long.MIN_VALUE;
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private AggregateResults() {
    }

    static DeviceColumn column(AggCall call, KeyColumn arg, Accumulation.State state, DeviceWork work) {
        int groups = state.count().length;
        DataType type = call.type();
        long[] values = new long[groups];
        boolean[] nulls = new boolean[groups];
        StringDictionary dictionary = null;
        switch (Accumulation.op(call, arg)) {
            case Accumulation.OP_COUNT_ROWS, Accumulation.OP_COUNT -> {
                for (int g = 0; g < groups; g++) {
                    values[g] = checkFits(state.count()[g], type);
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
                int inputScale = scaleOf(arg.column().type());
                for (int g = 0; g < groups; g++) {
                    long n = state.count()[g];
                    nulls[g] = n == 0;
                    if (!nulls[g]) {
                        values[g] = exactResult(call, type, inputScale, state.b()[g], state.a()[g], n);
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
                    values[g] = nulls[g] ? 0 : decode(state.a()[g], arg.kind());
                }
                if (arg.kind() == KeyColumn.RANK) {
                    dictionary = arg.ranks().byRank();
                }
            }
        }
        return HostColumns.upload(type, values, nulls, dictionary, work);
    }

    private static long exactResult(AggCall call, DataType type, int inputScale, long high, long low, long count) {
        boolean average = call.function() == AggFunction.AVG;
        if (high == low >> 63 && type.kind() != TypeKind.DOUBLE) {
            Long fast = exactOnLongs(average, low, count, scaleOf(type) - inputScale, type.kind() == TypeKind.DECIMAL);
            if (fast != null) {
                return checkFits(fast, type);
            }
        }
        if (type.kind() == TypeKind.DOUBLE) {
            return Double.doubleToRawLongBits(ExactQuotients.toDouble(high, low, inputScale, average ? count : 1));
        }
        BigInteger unsignedLow = new BigInteger(Long.toUnsignedString(low));
        BigDecimal sum = new BigDecimal(BigInteger.valueOf(high).shiftLeft(64).add(unsignedLow), inputScale);
        int resultScale = scaleOf(type);
        RoundingMode rounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
        BigDecimal result = average ? sum.divide(BigDecimal.valueOf(count), resultScale, rounding)
                : sum.setScale(resultScale, RoundingMode.HALF_UP);
        BigInteger unscaled = result.unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric value out of range");
        }
        return checkFits(unscaled.longValue(), type);
    }

    /** The physical value of an ordered key (sort/ordered_key.cuh); string keys are ranks. */
    /**
     * The common case without BigDecimal (millions of groups are finished here): a sum that fits
     * 64 bits, scaled up by {@code shift} digits, divided by the count for AVG, rounded HALF_UP for
     * DECIMAL results and toward zero otherwise. Null when it needs more than 64 bits or rounding
     * of the sum itself (a smaller result scale): the exact path handles those.
     */
    private static Long exactOnLongs(boolean average, long sum, long count, int shift, boolean halfUp) {
        if (shift < 0 || shift > 18) {
            return null;
        }
        long scaled;
        try {
            scaled = Math.multiplyExact(sum, POW10[shift]);
        } catch (ArithmeticException e) {
            return null;
        }
        if (!average) {
            return scaled;
        }
        long quotient = scaled / count;
        long remainder = Math.abs(scaled % count);
        if (halfUp && remainder >= count - remainder) {
            quotient += scaled < 0 ? -1 : 1;
        }
        return quotient;
    }

    static long decode(long key, int kind) {
        return switch (kind) {
            case KeyColumn.BOOL, KeyColumn.RANK -> key;
            case KeyColumn.INT32, KeyColumn.INT64 -> key ^ SIGN_BIT;
            default -> (key & SIGN_BIT) != 0 ? key ^ SIGN_BIT : ~key;  // doubles: undo the IEEE trick
        };
    }

    private static long checkFits(long v, DataType type) {
        if (type.kind() == TypeKind.INTEGER && (int) v != v) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range: " + v);
        }
        return v;
    }

    static int scaleOf(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }
}
