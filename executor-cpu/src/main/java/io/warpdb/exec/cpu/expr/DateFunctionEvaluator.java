package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import io.warpdb.exec.cpu.column.Column;

/**
 * The date and time functions, one value (and an amount) per row. On DATE days:
 * EXTRACT_YEAR/QUARTER/MONTH/DAY/DOW/DOY (numbers; DOW 0 = Sunday), DATE_ADD_DAYS /
 * DATE_ADD_MONTHS (date, amount), the latter clamping to the end of the month, and DATE_DIFF_DAYS
 * (start, end). On TIMESTAMP microseconds: EXTRACT_HOUR/MINUTE/SECOND/MILLISECOND/MICROSECOND/EPOCH,
 * DATE_TRUNC to a unit, and TIMESTAMP_ADD_MICROS / TIMESTAMP_ADD_MONTHS (timestamp, amount), beyond
 * TIMESTAMP's range 22008.
 */
final class DateFunctionEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator value;
    /** The number of days, months or microseconds to add, or DATE_DIFF_DAYS's end; null for the others. */
    private final Evaluator amount;
    /** DATE_TRUNC's unit; null for the others. */
    private final Timestamps.Unit unit;
    private final DataType type;

    DateFunctionEvaluator(Op op, Evaluator value, Evaluator amount, Timestamps.Unit unit, DataType type) {
        this.op = op;
        this.value = value;
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
        Column values = value.evaluate(input);
        Column amounts = amount == null ? null : amount.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(values, amounts);
        long[] v = values.longs();
        long[] n = amounts == null ? null : amounts.longs();
        long[] out = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.checkFits(apply(v[i], n == null ? 0 : n[i]), type);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private long apply(long x, long n) {
        return switch (op) {
            case EXTRACT_YEAR -> Dates.year(Dates.civil(x));
            case EXTRACT_QUARTER -> (Dates.month(Dates.civil(x)) - 1) / 3 + 1;
            case EXTRACT_MONTH -> Dates.month(Dates.civil(x));
            case EXTRACT_DAY -> Dates.day(Dates.civil(x));
            case EXTRACT_DOW -> Dates.dayOfWeek(x);
            case EXTRACT_DOY -> Dates.dayOfYear(x);
            case DATE_ADD_DAYS -> Dates.checkDate(Decimals.add(x, n));
            case DATE_ADD_MONTHS -> Dates.checkDate(Dates.addMonths(x, n));
            case DATE_DIFF_DAYS -> n - x;
            case EXTRACT_HOUR -> Timestamps.hour(x);
            case EXTRACT_MINUTE -> Timestamps.minute(x);
            case EXTRACT_SECOND -> Timestamps.second(x);
            case EXTRACT_MILLISECOND -> Timestamps.microsOfMinute(x) / 1000;
            case EXTRACT_MICROSECOND -> Timestamps.microsOfMinute(x);
            case EXTRACT_EPOCH -> Timestamps.epochSecond(x);
            case DATE_TRUNC -> Timestamps.truncate(x, unit);
            case TIMESTAMP_ADD_MICROS -> Timestamps.addMicros(x, n);
            case TIMESTAMP_ADD_MONTHS -> Timestamps.addMonths(x, n);
            default -> throw new IllegalStateException(op + " is not a date or time function");
        };
    }
}
