package io.warpdb.exec.cpu.expr;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/** A constant, repeated for every row (strings: code 0 of a one-entry dictionary). */
final class LiteralEvaluator implements Evaluator {
    private final Literal literal;
    /** Columns are immutable, so the last one is reused while the row count stays the same. */
    private Column last;

    LiteralEvaluator(Literal literal) {
        this.literal = literal;
    }

    @Override
    public DataType type() {
        return literal.type();
    }

    @Override
    public Column evaluate(EvalInput input) {
        int rows = input.rowCount();
        if (last == null || last.size() != rows) {
            last = constant(rows);
        }
        return last;
    }

    private Column constant(int rows) {
        DataType type = literal.type();
        Object value = literal.value();
        if (value == null) {
            return Column.allNull(type, rows);
        }
        if (type.kind() == TypeKind.DOUBLE) {
            double[] values = new double[rows];
            Arrays.fill(values, (Double) value);
            return Column.ofDoubles(type, values, null);
        }
        long[] values = new long[rows];
        if (type.isWideDecimal()) {
            Int128 v = new Int128().set((BigInteger) value);
            long[] highs = new long[rows];
            Arrays.fill(values, v.low);
            Arrays.fill(highs, v.high);
            return Column.ofWide(type, values, highs, null);
        }
        if (type.kind().isString()) {
            return Column.ofCodes(type, values, null, StringDictionary.ofDistinct(List.of((String) value)));
        }
        Arrays.fill(values, type.kind() == TypeKind.BOOLEAN ? ((Boolean) value ? 1 : 0) : (Long) value);
        return Column.ofLongs(type, values, null);
    }
}
