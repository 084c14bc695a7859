package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;

/**
 * A function producing a string per row (see {@link StringFunctions}); NULL when any argument
 * is NULL. The results get a fresh deduplicated dictionary. When the function reads a single
 * string column, {@link ExprCompiler} runs it once per dictionary entry instead (through
 * {@link DictionaryMapEvaluator}), so this per-row form serves the other cases, such as the
 * concatenation of two columns.
 */
final class StringFunctionEvaluator implements Evaluator {
    /** The value for one row, given the evaluated arguments (none NULL at that row). */
    @FunctionalInterface
    interface RowFunction {
        String apply(Column[] args, int row);
    }

    private final List<Evaluator> args;
    private final RowFunction function;
    private final DataType type;

    StringFunctionEvaluator(List<Evaluator> args, RowFunction function, DataType type) {
        this.args = args;
        this.function = function;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    /** Each argument's values over {@code input}. */
    static Column[] evaluateAll(List<Evaluator> args, EvalInput input) {
        Column[] values = new Column[args.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = args.get(k).evaluate(input);
        }
        return values;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column[] values = evaluateAll(args, input);
        boolean[] nulls = Column.nullsOfAny(values);
        int rows = input.rowCount();
        StringDictionary.Builder dictionary = new StringDictionary.Builder();
        long[] codes = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                codes[i] = dictionary.add(function.apply(values, i));
            }
        }
        return Column.ofCodes(type, codes, nulls, dictionary.build());
    }
}
