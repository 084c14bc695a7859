package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.cpu.column.Column;

/**
 * The time parts of a TIMESTAMP (EXTRACT_HOUR/MINUTE/SECOND/MILLISECOND/MICROSECOND/EPOCH),
 * DATE_TRUNC to a unit, and TIMESTAMP_ADD_MICROS / TIMESTAMP_ADD_MONTHS (timestamp, amount), the
 * latter clamping the day to the end of the month. Overflow beyond TIMESTAMP's range raises 22008.
 */
final class TimestampFunctionEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator timestamp;
    /** The microseconds or months to add; null for the others. */
    private final Evaluator amount;
    /** DATE_TRUNC's unit; null for the others. */
    private final Timestamps.Unit unit;
    private final DataType type;

    TimestampFunctionEvaluator(Op op, Evaluator timestamp, Evaluator amount, Timestamps.Unit unit, DataType type) {
        this.op = op;
        this.timestamp = timestamp;
        this.amount = amount;
        this.unit = unit;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column times = timestamp.evaluate(input);
        Column amounts = amount == null ? null : amount.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(times, amounts);
        long[] t = times.longs();
        long[] n = amounts == null ? null : amounts.longs();
        long[] out = new long[t.length];
        for (int i = 0; i < t.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = apply(t[i], n == null ? 0 : n[i]);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private long apply(long micros, long n) {
        return switch (op) {
            case EXTRACT_HOUR -> Timestamps.hour(micros);
            case EXTRACT_MINUTE -> Timestamps.minute(micros);
            case EXTRACT_SECOND -> Timestamps.second(micros);
            case EXTRACT_MILLISECOND -> Timestamps.microsOfMinute(micros) / 1000;
            case EXTRACT_MICROSECOND -> Timestamps.microsOfMinute(micros);
            case EXTRACT_EPOCH -> Timestamps.epochSecond(micros);
            case DATE_TRUNC -> Timestamps.truncate(micros, unit);
            case TIMESTAMP_ADD_MICROS -> Timestamps.addMicros(micros, n);
            case TIMESTAMP_ADD_MONTHS -> Timestamps.addMonths(micros, n);
            default -> throw new IllegalStateException(op + " is not a timestamp function");
        };
    }
}
