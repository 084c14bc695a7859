package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * A call over constants only ({@code DATE '1994-01-01' + INTERVAL '1' YEAR}, {@code 0.06 - 0.01}):
 * computed once, for the first non-empty input, then repeated like a literal, instead of once per
 * row of every batch (TPC-H Q6 spent most of its filter on such date arithmetic). Not computed for
 * empty inputs, so an error it raises (1 / 0) still appears only where a row needs the value.
 */
final class ConstantEvaluator implements Evaluator {
    private final Evaluator computed;
    private LiteralEvaluator value;

    ConstantEvaluator(Evaluator computed) {
        this.computed = computed;
    }

    @Override
    public DataType type() {
        return computed.type();
    }

    @Override
    public Column evaluate(EvalInput input) {
        if (input.rowCount() == 0) {
            return computed.evaluate(input);
        }
        if (value == null) {
            value = new LiteralEvaluator(literal(computed.evaluate(new ColumnsInput(1))));
        }
        return value.evaluate(input);
    }

    private Literal literal(Column one) {
        DataType type = computed.type();
        if (one.isNull(0)) {
            return new Literal(null, type);
        }
        Object v;
        if (type.kind() == TypeKind.DOUBLE) {
            v = one.doubles()[0];
        } else if (type.kind().isString()) {
            v = one.string(0);
        } else if (one.isWide()) {
            v = Int128.toBigInteger(one.highs()[0], one.longs()[0]);
        } else if (type.kind() == TypeKind.BOOLEAN) {
            v = one.longs()[0] != 0;
        } else {
            v = one.longs()[0];
        }
        return new Literal(v, type);
    }
}
