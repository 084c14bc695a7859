package io.warpdb.core.value;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Exact arithmetic on scaled 64-bit integers (INTEGER and BIGINT are scale 0, DECIMAL holds
 * value * 10^scale). Every operation either returns the exact (or correctly rounded) result or
 * throws SQLSTATE 22003; nothing wraps around. The common paths stay on primitive longs;
 * BigInteger/BigDecimal appear only when an intermediate product does not fit 64 bits.
 */
public final class Decimals {
    /** A double converted to an exact value must be below this magnitude (vm.cuh's F2DEC bound, VmConstantsTest). */
    public static final double TWO_POW_63 = 0x1p63;
    /**
     * How near to .5 a scaled double's fraction counts as a tie, decided on the double's shortest
     * decimal form rather than on its binary product (vm.cuh's F2DEC tolerance, VmConstantsTest).
     */
    public static final double TIE_TOLERANCE = 1e-6;

    private Decimals() {
    }

    /** The scale of an exact type: DECIMAL's scale, 0 for INTEGER and BIGINT. */
    public static int scaleOf(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }

    /** Changes the scale of an unscaled value, rounding HALF_UP when digits are dropped. */
    public static long rescale(long v, int fromScale, int toScale) {
        if (toScale >= fromScale) {
            return scaleUp(v, toScale - fromScale);
        }
        int drop = fromScale - toScale;
        if (drop > Pow10.MAX_EXPONENT) {
            return unscaledExact(BigDecimal.valueOf(v, fromScale).setScale(toScale, RoundingMode.HALF_UP));
        }
        return divide(v, Pow10.of(drop), RoundingMode.HALF_UP);
    }

    /** v * 10^digits, or 22003. */
    public static long scaleUp(long v, int digits) {
        if (digits == 0 || v == 0) {
            return v;
        }
        if (digits > Pow10.MAX_EXPONENT) {
            throw outOfRange();
        }
        return multiply(v, Pow10.of(digits));
    }

    /** a * b, or 22003. */
    public static long multiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi != (lo >> 63)) {
            throw outOfRange();
        }
        return lo;
    }

    public static long add(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw outOfRange();
        }
        return r;
    }

    public static long subtract(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            throw outOfRange();
        }
        return r;
    }

    public static long negate(long v) {
        if (v == Long.MIN_VALUE) {
            throw outOfRange();
        }
        return -v;
    }

    /**
     * a * b, whose exact scale is {@code productScale} (the sum of the factors' scales), rounded
     * HALF_UP to {@code toScale}. Falls back to BigInteger when the exact product overflows 64 bits,
     * since rounding to a smaller scale may bring it back into range.
     */
    public static long multiplyRescaled(long a, long b, int productScale, int toScale) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi == (lo >> 63)) {
            return rescale(lo, productScale, toScale);
        }
        BigDecimal product = new BigDecimal(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)), productScale);
        return unscaledExact(product.setScale(toScale, RoundingMode.HALF_UP));
    }

    /**
     * (a / 10^aScale) / (b / 10^bScale) as an unscaled value of scale {@code toScale}, rounded with
     * {@code mode} (HALF_UP for DECIMAL results, DOWN to truncate integer division). 22012 when b is 0.
     */
    public static long divideScaled(long a, int aScale, long b, int bScale, int toScale, RoundingMode mode) {
        if (b == 0) {
            throw divisionByZero();
        }
        int shift = toScale + bScale - aScale;
        long num = a;
        long den = b;
        if (shift > 0) {
            num = shift > Pow10.MAX_EXPONENT ? 0 : a * Pow10.of(shift);
            if (shift > Pow10.MAX_EXPONENT || Math.multiplyHigh(a, Pow10.of(shift)) != (num >> 63)) {
                return divideSlow(a, aScale, b, bScale, toScale, mode);
            }
        } else if (shift < 0) {
            den = -shift > Pow10.MAX_EXPONENT ? 0 : b * Pow10.of(-shift);
            if (-shift > Pow10.MAX_EXPONENT || Math.multiplyHigh(b, Pow10.of(-shift)) != (den >> 63)) {
                return divideSlow(a, aScale, b, bScale, toScale, mode);
            }
        }
        return divide(num, den, mode);
    }

    private static long divideSlow(long a, int aScale, long b, int bScale, int toScale, RoundingMode mode) {
        return unscaledExact(BigDecimal.valueOf(a, aScale).divide(BigDecimal.valueOf(b, bScale), toScale, mode));
    }

    /** num / den rounded with {@code mode} (HALF_UP, DOWN, FLOOR or CEILING). */
    public static long divide(long num, long den, RoundingMode mode) {
        if (den == 0) {
            throw divisionByZero();
        }
        if (den == Long.MIN_VALUE || num == Long.MIN_VALUE) {
            // The only cases where abs() or the quotient itself overflows.
            return unscaledExact(new BigDecimal(num).divide(new BigDecimal(den), 0, mode));
        }
        long q = num / den;
        long r = num % den;
        if (r == 0) {
            return q;
        }
        boolean negative = (num ^ den) < 0;
        return switch (mode) {
            case DOWN -> q;
            case HALF_UP -> Math.abs(r) >= Math.abs(den) - Math.abs(r) ? (negative ? q - 1 : q + 1) : q;
            case FLOOR -> negative ? q - 1 : q;
            case CEILING -> negative ? q : q + 1;
            default -> throw new IllegalArgumentException("unsupported rounding " + mode);
        };
    }

    /** Compares a (scale aScale) with b (scale bScale) exactly. */
    public static int compare(long a, int aScale, long b, int bScale) {
        if (aScale == bScale) {
            return Long.compare(a, b);
        }
        if (aScale < bScale) {
            return -compare(b, bScale, a, aScale);
        }
        // b has the smaller scale: bring it up; if that overflows, b's magnitude exceeds any long.
        int shift = aScale - bScale;
        long hi = Math.multiplyHigh(b, Pow10.of(shift));
        long lo = b * Pow10.of(shift);
        if (hi != (lo >> 63)) {
            return b > 0 ? -1 : 1;
        }
        return Long.compare(a, lo);
    }

    public static double toDouble(long unscaled, int scale) {
        return scale == 0 ? unscaled : unscaled / Pow10.asDouble(scale);
    }

    /** A double as an unscaled value of {@code scale}, rounded HALF_UP (away from zero on ties); 22003 when out of range. */
    public static long fromDouble(double v, int scale) {
        double scaled = v * Pow10.asDouble(scale);
        if (!(Math.abs(scaled) < TWO_POW_63)) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + v + " is out of range");
        }
        double floor = Math.floor(scaled);
        double fraction = scaled - floor;
        if (Math.abs(fraction - 0.5) < TIE_TOLERANCE) {
            // Near a tie the binary product may have drifted (0.285 * 100 = 28.499999...):
            // decide on the shortest decimal form of the double, as a person reads it.
            return unscaledExact(BigDecimal.valueOf(v).setScale(scale, RoundingMode.HALF_UP));
        }
        return (long) floor + (fraction > 0.5 ? 1 : 0);
    }

    /**
     * ROUND(v, digits) on a double as DuckDB computes it: the binary product with 10^digits (or
     * quotient by 10^-digits) rounded half away from zero, then scaled back; so ROUND(0.285, 2) is
     * 0.28, the product being 28.499999999999996 (TPC-DS q78 compares such a value).
     */
    public static double round(double v, int digits) {
        double rounded;
        if (digits < 0) {
            double modifier = Math.pow(10, -digits);
            rounded = roundHalfAwayFromZero(v / modifier) * modifier;
            return Double.isFinite(rounded) ? rounded : 0;
        }
        double modifier = Math.pow(10, digits);
        rounded = roundHalfAwayFromZero(v * modifier) / modifier;
        return Double.isFinite(rounded) ? rounded : v;
    }

    private static double roundHalfAwayFromZero(double v) {
        double magnitude = Math.abs(v);
        double floor = Math.floor(magnitude);
        return Math.copySign(magnitude - floor >= 0.5 ? floor + 1 : floor, v);
    }

    /** The unscaled value of a BigDecimal, or 22003 when it does not fit 64 bits. */
    public static long unscaledExact(BigDecimal d) {
        BigInteger unscaled = d.unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw outOfRange();
        }
        return unscaled.longValue();
    }

    /** Checks that a value fits the range of an exact result type (INTEGER: 32 bits, SMALLINT 16, TINYINT 8). */
    public static long checkFits(long v, DataType type) {
        if (exceedsRange(v, type)) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, type.sqlName().toLowerCase(Locale.ROOT)
                    + " out of range: " + v);
        }
        return v;
    }

    /** Whether a value is outside the range of an INTEGER-kind type (TINYINT, SMALLINT, INTEGER); false for other types. */
    public static boolean exceedsRange(long v, DataType type) {
        if (type.kind() != TypeKind.INTEGER) {
            return false;
        }
        int bits = type.isNarrowInteger() ? type.precision() : Integer.SIZE;
        return v >> (bits - 1) != v >> 63;
    }

    /** Checks a CAST result against the declared type: INTEGER range, or DECIMAL precision. */
    public static long checkDeclared(long v, DataType type) {
        if (type.kind() == TypeKind.DECIMAL && (v >= Pow10.of(type.precision()) || v <= -Pow10.of(type.precision()))) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value " + BigDecimal.valueOf(v, type.scale()).toPlainString() + " is out of range for " + type.sqlName());
        }
        return checkFits(v, type);
    }

    public static WarpException outOfRange() {
        return new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric value out of range");
    }

    public static WarpException divisionByZero() {
        return new WarpException(SqlState.DIVISION_BY_ZERO, "division by zero");
    }
}
