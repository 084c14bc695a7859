package io.warpdb.exec.cpu.expr;

import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.column.Column;

/**
 * The unary boolean operators NOT, IS [NOT] NULL, IS [NOT] TRUE, IS [NOT] FALSE, each a table
 * from the input's state (FALSE, TRUE, NULL) to the result's. IS [NOT] NULL accepts any type.
 */
final class TruthTableEvaluator implements Evaluator {
    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int NULL = 2;

    private final Evaluator arg;
    /** Result for input FALSE, TRUE, NULL. */
    private final int[] table;
    private final DataType type;

    TruthTableEvaluator(Op op, Evaluator arg, DataType type) {
        this.arg = arg;
        this.type = type;
        this.table = switch (op) {
            case NOT -> new int[] {TRUE, FALSE, NULL};
            case IS_NULL -> new int[] {FALSE, FALSE, TRUE};
            case IS_NOT_NULL -> new int[] {TRUE, TRUE, FALSE};
            case IS_TRUE -> new int[] {FALSE, TRUE, FALSE};
            case IS_NOT_TRUE -> new int[] {TRUE, FALSE, TRUE};
            case IS_FALSE -> new int[] {TRUE, FALSE, FALSE};
            case IS_NOT_FALSE -> new int[] {FALSE, TRUE, TRUE};
            default -> throw new IllegalStateException(op + " is not a unary boolean operator");
        };
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = arg.evaluate(input);
        boolean isBoolean = a.type().kind() == TypeKind.BOOLEAN;
        int rows = input.rowCount();
        long[] out = new long[rows];
        boolean[] nulls = null;
        for (int i = 0; i < rows; i++) {
            int state = a.isNull(i) ? NULL : isBoolean ? (int) a.longs()[i] : TRUE;
            int result = table[state];
            if (result == NULL) {
                if (nulls == null) {
                    nulls = new boolean[rows];
                }
                nulls[i] = true;
            } else {
                out[i] = result;
            }
        }
        return Column.ofLongs(type, out, nulls);
    }
}
