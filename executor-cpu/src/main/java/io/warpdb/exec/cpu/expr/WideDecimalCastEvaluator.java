package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.TextValues;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * CAST to or from a wide DECIMAL (precision over 18), other than to a string: between exact types
 * on 128-bit values (rescaled HALF_UP; 22003 beyond the target's precision or range), from and
 * to DOUBLE and REAL, and from text (parsed per row: a cast from text is rare enough not to need
 * {@link DictionaryLookupEvaluator}'s per-entry memory).
 */
final class WideDecimalCastEvaluator implements Evaluator {
    private final Evaluator arg;
    private final DataType type;

    WideDecimalCastEvaluator(Evaluator arg, DataType type) {
        TypeKind from = arg.type().kind();
        if (!(from.isString() || from.isNumeric()) || !type.kind().isNumeric()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "cannot cast " + arg.type().sqlName() + " to " + type.sqlName());
        }
        this.arg = arg;
        this.type = type;
    }

    /** Whether a cast between these types is this evaluator's. */
    static boolean applies(DataType from, DataType to) {
        return (from.isWideDecimal() || to.isWideDecimal()) && !to.kind().isString();
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column a = arg.evaluate(input);
        if (type.kind() == TypeKind.DOUBLE) {
            double[] x = a.toDoubles();
            double[] out = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                out[i] = a.isNull(i) ? 0 : type.convertToDeclared(x[i]);
            }
            return Column.ofDoubles(type, out, a.nulls());
        }
        int rows = a.size();
        long[] lows = new long[rows];
        long[] highs = new long[rows];
        Int128 v = new Int128();
        int fromScale = Decimals.scaleOf(a.type());
        int toScale = Decimals.scaleOf(type);
        for (int i = 0; i < rows; i++) {
            if (a.isNull(i)) {
                continue;
            }
            if (a.type().kind().isString()) {
                v.set(TextValues.parseWideDecimal(a.string(i), type));
            } else if (a.isDouble()) {
                v.set(fromDouble(a.doubles()[i]));
            } else {
                WideValues.load(a, i, v).rescale(fromScale, toScale);
            }
            WideValues.checkFits(v, type);
            lows[i] = v.low;
            highs[i] = v.high;
        }
        return type.isWideDecimal() ? Column.ofWide(type, lows, highs, a.nulls()) : Column.ofLongs(type, lows, a.nulls());
    }

    /** A double's shortest decimal form rounded HALF_UP to the scale (as {@link Decimals#fromDouble} decides ties). */
    private java.math.BigInteger fromDouble(double d) {
        if (!Double.isFinite(d)) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + d + " is out of range for " + type.sqlName());
        }
        return BigDecimal.valueOf(d).setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue();
    }
}
