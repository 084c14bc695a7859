package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * ADD, SUBTRACT and MULTIPLY with a wide DECIMAL operand or result, and NEGATE and ABS of a wide
 * DECIMAL: exact on 128-bit values (either operand may be a 64-bit exact number), the result
 * rounded HALF_UP to its scale; 22003 when it needs more than 128 bits or more digits than its
 * precision. The quotient of DECIMALs is DOUBLE ({@link DoubleArithmeticEvaluator}, which reads wide
 * operands as doubles).
 */
final class WideDecimalArithmeticEvaluator implements Evaluator {
    private final Op op;
    private final Evaluator left;
    /** Null for NEGATE and ABS. */
    private final Evaluator right;
    private final DataType type;

    WideDecimalArithmeticEvaluator(Op op, Evaluator left, Evaluator right, DataType type) {
        if (op != Op.ADD && op != Op.SUBTRACT && op != Op.MULTIPLY && op != Op.NEGATE && op != Op.ABS
                || !type.kind().isExactNumeric()) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, op + " of DECIMAL with more than "
                    + DataType.MAX_DECIMAL_PRECISION + " digits, typed " + type.sqlName() + ", is not supported yet");
        }
        this.op = op;
        this.left = left;
        this.right = right;
        this.type = type;
    }

    /** Whether an operation over these types and giving {@code result} is this evaluator's. */
    static boolean applies(DataType result, Evaluator... operands) {
        boolean wide = result.isWideDecimal();
        for (Evaluator e : operands) {
            wide |= e.type().isWideDecimal();
        }
        return wide && result.kind().isExactNumeric();
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = left.evaluate(input);
        Column b = right == null ? null : right.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(a, b);
        int rows = a.size();
        int aScale = Decimals.scaleOf(a.type());
        int bScale = b == null ? 0 : Decimals.scaleOf(b.type());
        int resultScale = Decimals.scaleOf(type);
        long[] lows = new long[rows];
        long[] highs = new long[rows];
        Int128 x = new Int128();
        Int128 y = new Int128();
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            WideValues.load(a, i, x);
            int scale = aScale;
            switch (op) {
                case NEGATE -> x.negate();
                case ABS -> {
                    if (x.isNegative()) {
                        x.negate();
                    }
                }
                case MULTIPLY -> {
                    WideValues.load(b, i, y);
                    x.multiply(y.high, y.low);
                    scale = aScale + bScale;
                }
                default -> {
                    scale = Math.max(aScale, bScale);
                    x.scaleUp(scale - aScale);
                    WideValues.load(b, i, y).scaleUp(scale - bScale);
                    if (op == Op.ADD) {
                        x.add(y.high, y.low);
                    } else {
                        x.subtract(y.high, y.low);
                    }
                }
            }
            x.rescale(scale, resultScale);
            WideValues.checkFits(x, type);
            lows[i] = x.low;
            highs[i] = x.high;
        }
        return type.isWideDecimal() ? Column.ofWide(type, lows, highs, nulls) : Column.ofLongs(type, lows, nulls);
    }
}
