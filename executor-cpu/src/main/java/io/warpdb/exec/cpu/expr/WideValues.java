package io.warpdb.exec.cpu.expr;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/** Reading exact values of any width into {@link Int128}s, comparing them across scales, and checking results against their type. */
final class WideValues {
    private WideValues() {
    }

    /** Row {@code row} of an exact column (64-bit or wide) into {@code into}, unscaled. */
    static Int128 load(Column c, int row, Int128 into) {
        return c.isWide() ? into.set(c.highs()[row], c.longs()[row]) : into.set(c.longs()[row]);
    }

    /** Sign of a[row] compared with b[row], exact columns of any widths and scales; {@code x} and {@code y} are scratch. */
    static int compare(Column a, Column b, int row, Int128 x, Int128 y) {
        int aScale = Decimals.scaleOf(a.type());
        int bScale = Decimals.scaleOf(b.type());
        load(a, row, x);
        load(b, row, y);
        try {
            x.scaleUp(Math.max(aScale, bScale) - aScale);
            y.scaleUp(Math.max(aScale, bScale) - bScale);
        } catch (WarpException beyond128Bits) {
            // A value brought to the other's scale outgrew 128 bits (38 digits at scale 0 against scale 38): rare, exact in BigDecimal.
            load(a, row, x);
            load(b, row, y);
            return x.toBigDecimal(aScale).compareTo(y.toBigDecimal(bScale));
        }
        return Int128.compare(x.high, x.low, y.high, y.low);
    }

    /** 22003 unless {@code v} fits {@code type}: a wide DECIMAL's precision, or a 64-bit exact type's range and precision. */
    static void checkFits(Int128 v, DataType type) {
        if (type.isWideDecimal()) {
            v.checkPrecision(type.precision(), type.scale(), type.sqlName());
        } else if (!v.fitsLong()) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value " + v.toBigDecimal(Decimals.scaleOf(type)).toPlainString() + " is out of range for " + type.sqlName());
        } else {
            Decimals.checkDeclared(v.low, type);
        }
    }
}
