package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.TextValues;

/** CHAR_LENGTH(s): the number of characters (code points). */
final class CharLengthEvaluator implements Evaluator {
    private final Evaluator arg;
    private final DataType type;

    CharLengthEvaluator(Evaluator arg, DataType type) {
        this.arg = arg;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column s = arg.evaluate(input);
        long[] out = new long[s.size()];
        for (int i = 0; i < out.length; i++) {
            if (!s.isNull(i)) {
                out[i] = TextValues.length(s.string(i));
            }
        }
        return Column.ofLongs(type, out, s.nulls());
    }
}
