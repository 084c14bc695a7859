package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;

/**
 * EXTRACT_YEAR/QUARTER/MONTH/DAY/DOW/DOY (numbers; DOW 0 = Sunday) and DATE_ADD_DAYS /
 * DATE_ADD_MONTHS (date, amount), the latter clamping to the end of the month, and DATE_DIFF_DAYS
 * (start, end).
 */
final class DateFunctionEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator date;
    /** The number of days or months to add, or DATE_DIFF_DAYS's end; null for EXTRACT. */
    private final Evaluator amount;
    private final DataType type;

    DateFunctionEvaluator(Op op, Evaluator date, Evaluator amount, DataType type) {
        this.op = op;
        this.date = date;
        this.amount = amount;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column days = date.evaluate(input);
        Column amounts = amount == null ? null : amount.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(days, amounts);
        long[] d = days.longs();
        long[] out = new long[d.length];
        for (int i = 0; i < d.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = Decimals.checkFits(apply(d[i], amounts == null ? 0 : amounts.longs()[i]), type);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private long apply(long day, long n) {
        return switch (op) {
            case EXTRACT_YEAR -> Dates.year(Dates.civil(day));
            case EXTRACT_QUARTER -> (Dates.month(Dates.civil(day)) - 1) / 3 + 1;
            case EXTRACT_MONTH -> Dates.month(Dates.civil(day));
            case EXTRACT_DAY -> Dates.day(Dates.civil(day));
            case EXTRACT_DOW -> Dates.dayOfWeek(day);
            case EXTRACT_DOY -> Dates.dayOfYear(day);
            case DATE_ADD_DAYS -> Dates.checkDate(Decimals.add(day, n));
            case DATE_ADD_MONTHS -> Dates.checkDate(Dates.addMonths(day, n));
            case DATE_DIFF_DAYS -> n - day;
            default -> throw new IllegalStateException(op + " is not a date function");
        };
    }
}
