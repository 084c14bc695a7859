package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.column.ColumnBuilder;
import java.util.List;

/** COALESCE(a, b, ...): the first non-NULL argument; each argument is evaluated only on rows still NULL. */
final class CoalesceEvaluator implements Evaluator {
    private final List<Evaluator> args;
    private final DataType type;

    CoalesceEvaluator(List<Evaluator> args, DataType type) {
        this.args = args;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        ColumnBuilder result = new ColumnBuilder(type, input.rowCount());
        int[] remaining = Subsets.allRows(input.rowCount());
        for (int k = 0; k < args.size() && remaining.length > 0; k++) {
            Column value = Subsets.evaluateOn(args.get(k), input, remaining);
            result.scatter(value, remaining);
            remaining = nullRows(value, remaining);
        }
        return result.build();
    }

    private static int[] nullRows(Column value, int[] rows) {
        if (value.nulls() == null) {
            return new int[0];
        }
        int count = 0;
        for (int i = 0; i < rows.length; i++) {
            if (value.isNull(i)) {
                count++;
            }
        }
        int[] out = new int[count];
        for (int i = 0, at = 0; i < rows.length; i++) {
            if (value.isNull(i)) {
                out[at++] = rows[i];
            }
        }
        return out;
    }
}
