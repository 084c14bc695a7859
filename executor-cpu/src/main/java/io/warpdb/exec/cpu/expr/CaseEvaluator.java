package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.column.ColumnBuilder;
import java.util.List;

/**
 * CASE WHEN c1 THEN v1 ... ELSE e END: each row takes the value of the first WHEN that is TRUE.
 * Every WHEN is evaluated only on the rows no earlier WHEN took, and every branch only on its
 * own rows, so a branch never fails on rows it does not produce.
 */
final class CaseEvaluator implements Evaluator {
    private final List<Evaluator> whens;
    private final List<Evaluator> thens;
    private final Evaluator otherwise;
    private final DataType type;

    CaseEvaluator(List<Evaluator> whens, List<Evaluator> thens, Evaluator otherwise, DataType type) {
        this.whens = whens;
        this.thens = thens;
        this.otherwise = otherwise;
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
        for (int k = 0; k < whens.size() && remaining.length > 0; k++) {
            Column condition = Subsets.evaluateOn(whens.get(k), input, remaining);
            int[] taken = Subsets.split(condition, remaining, true);
            if (taken.length > 0) {
                result.scatter(Subsets.evaluateOn(thens.get(k), input, taken), taken);
                remaining = Subsets.split(condition, remaining, false);
            }
        }
        if (remaining.length > 0) {
            result.scatter(Subsets.evaluateOn(otherwise, input, remaining), remaining);
        }
        return result.build();
    }
}
