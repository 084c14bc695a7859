package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;

/**
 * A function of strings giving a number or a truth value per row (STRPOS, STARTS_WITH,
 * REGEXP_MATCHES; see {@link StringFunctions}); NULL when any argument is NULL. Over a single
 * string column {@link ExprCompiler} runs it once per dictionary entry instead.
 */
final class StringMeasureEvaluator implements Evaluator {
    /** The value for one row (a BOOLEAN as 0 or 1), given the evaluated arguments (none NULL at that row). */
    @FunctionalInterface
    interface RowMeasure {
        long apply(Column[] args, int row);
    }

    private final List<Evaluator> args;
    private final RowMeasure measure;
    private final DataType type;

    StringMeasureEvaluator(List<Evaluator> args, RowMeasure measure, DataType type) {
        this.args = args;
        this.measure = measure;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column[] values = StringFunctionEvaluator.evaluateAll(args, input);
        boolean[] nulls = Column.nullsOfAny(values);
        long[] out = new long[input.rowCount()];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = measure.apply(values, i);
            }
        }
        return Column.ofLongs(type, out, nulls);
    }
}
