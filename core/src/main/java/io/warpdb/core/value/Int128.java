package io.warpdb.core.value;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A mutable 128-bit two's-complement integer ({@code high * 2^64 + unsigned low}): the unscaled
 * value of a wide DECIMAL (precision 19..38), and the running sum of SUM over one. The operations
 * change this value in place so that loops over columns of high and low words allocate nothing;
 * each returns 22003 rather than wrap when the exact result needs more than 128 bits. Whether a
 * value fits a DECIMAL's precision is {@link #checkPrecision}'s question, asked once per result.
 * Division by a power of ten works on 32-bit limbs; only conversions from and to text, BigDecimal
 * and doubles' exact rounding go through BigInteger.
 */
public final class Int128 {
    /** Digits of the largest precision a 128-bit value holds entirely: 10^38 - 1 < 2^127. */
    public static final int MAX_DIGITS = 38;
    private static final long[] POW10_HIGH = new long[MAX_DIGITS + 1];
    private static final long[] POW10_LOW = new long[MAX_DIGITS + 1];
    private static final double TWO_POW_64 = 0x1p64;
    /** 10^n correctly rounded to doubles, as DuckDB's table holds them (Math.pow need not round so beyond 10^22). */
    private static final double[] POW10_DOUBLE = new double[MAX_DIGITS + 1];

    static {
        BigInteger p = BigInteger.ONE;
        for (int i = 0; i <= MAX_DIGITS; i++) {
            POW10_HIGH[i] = p.shiftRight(64).longValue();
            POW10_LOW[i] = p.longValue();
            POW10_DOUBLE[i] = Double.parseDouble("1e" + i);
            p = p.multiply(BigInteger.TEN);
        }
    }

    public long high;
    public long low;

    public Int128 set(long highWord, long lowWord) {
        high = highWord;
        low = lowWord;
        return this;
    }

    /** This value := v, sign-extended. */
    public Int128 set(long v) {
        return set(v >> 63, v);
    }

    public boolean isNegative() {
        return high < 0;
    }

    /** Whether the value fits a long (its high word is the low word's sign). */
    public boolean fitsLong() {
        return high == low >> 63;
    }

    /** this += (h, l), or 22003. */
    public Int128 add(long h, long l) {
        long sumLow = low + l;
        long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
        long sumHigh = high + h + carry;
        // Signed overflow of the high words (with the carry): the operands agree in sign, the result does not.
        if (((high ^ sumHigh) & (h ^ sumHigh)) < 0) {
            throw Decimals.outOfRange();
        }
        high = sumHigh;
        low = sumLow;
        return this;
    }

    /** this -= (h, l), or 22003. */
    public Int128 subtract(long h, long l) {
        long differenceLow = low - l;
        long borrow = Long.compareUnsigned(low, l) < 0 ? 1 : 0;
        long differenceHigh = high - h - borrow;
        // Signed overflow: the operands differ in sign and the result's sign is not the minuend's.
        if (((high ^ h) & (high ^ differenceHigh)) < 0) {
            throw Decimals.outOfRange();
        }
        high = differenceHigh;
        low = differenceLow;
        return this;
    }

    /**
     * This := upper * 2^64 + lower, the sum of wide values from the sums of their words kept apart
     * (no order of additions can then lose a carry): {@code upper} the 128-bit sum of their upper
     * words (signed), {@code lower} that of their lower words (unsigned, so not negative); 22003
     * when the sum needs more than 128 bits.
     */
    public Int128 setWordSums(long upperHigh, long upperLow, long lowerHigh, long lowerLow) {
        // upper * 2^64 + lower = (upper + lowerHigh) * 2^64 + lowerLow: 128 bits exactly when the first factor fits a long.
        set(upperHigh, upperLow).add(0, lowerHigh);
        if (!fitsLong()) {
            throw Decimals.outOfRange();
        }
        return set(low, lowerLow);
    }

    /** this := -this, or 22003 for -2^127. */
    public Int128 negate() {
        if (high == Long.MIN_VALUE && low == 0) {
            throw Decimals.outOfRange();
        }
        negateUnchecked();
        return this;
    }

    private void negateUnchecked() {
        high = ~high + (low == 0 ? 1 : 0);
        low = -low;
    }

    /** this *= (h, l), or 22003 when the product needs more than 128 bits. */
    public Int128 multiply(long h, long l) {
        boolean negative = (high < 0) != (h < 0);
        if (high < 0) {
            negateUnchecked();
        }
        long bHigh = h;
        long bLow = l;
        if (bHigh < 0) {
            bHigh = ~h + (l == 0 ? 1 : 0);
            bLow = -l;
        }
        // Magnitudes as unsigned 128-bit numbers; one of them must fit 64 bits or the product is >= 2^128.
        if (high != 0 && bHigh != 0) {
            throw Decimals.outOfRange();
        }
        long small = high == 0 ? low : bLow;
        long bigHigh = high == 0 ? bHigh : high;
        long bigLow = high == 0 ? bLow : low;
        long productLow = small * bigLow;
        long carry = unsignedMultiplyHigh(small, bigLow);
        long cross = small * bigHigh;
        if (bigHigh != 0 && unsignedMultiplyHigh(small, bigHigh) != 0) {
            throw Decimals.outOfRange();
        }
        long productHigh = cross + carry;
        if (Long.compareUnsigned(productHigh, cross) < 0 || productHigh < 0 && !(negative && productHigh == Long.MIN_VALUE && productLow == 0)) {
            throw Decimals.outOfRange();
        }
        high = productHigh;
        low = productLow;
        if (negative) {
            negateUnchecked();
        }
        return this;
    }

    /** this *= 10^digits, or 22003. */
    public Int128 scaleUp(int digits) {
        if (digits == 0) {
            return this;
        }
        if (digits > MAX_DIGITS) {
            if (high == 0 && low == 0) {
                return this;
            }
            throw Decimals.outOfRange();
        }
        return multiply(POW10_HIGH[digits], POW10_LOW[digits]);
    }

    /** this := this / 10^digits, rounded HALF_UP (half away from zero). */
    public Int128 scaleDownHalfUp(int digits) {
        if (digits == 0) {
            return this;
        }
        boolean negative = high < 0;
        if (negative) {
            negateUnchecked(); // -2^127 becomes 2^127: still right as an unsigned magnitude
        }
        if (digits > MAX_DIGITS) {
            high = 0;
            low = 0;
            return this;
        }
        // Add half the divisor (the magnitude is at most 2^127, so this stays below 2^128), then divide down.
        long halfLow = POW10_LOW[digits] >>> 1 | (POW10_HIGH[digits] & 1) << 63;
        long halfHigh = POW10_HIGH[digits] >>> 1;
        long sumLow = low + halfLow;
        high = high + halfHigh + (Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0);
        low = sumLow;
        for (int left = digits; left > 0; left -= 9) {
            divideUnsigned((int) Pow10.of(Math.min(9, left)));
        }
        if (negative) {
            negateUnchecked();
        }
        return this;
    }

    /** Unsigned this / divisor (divisor below 2^31), in 32-bit limbs from the top; the remainder is dropped. */
    private void divideUnsigned(int divisor) {
        long remainder = 0;
        long[] limbs = {high >>> 32, high & 0xFFFFFFFFL, low >>> 32, low & 0xFFFFFFFFL};
        for (int i = 0; i < 4; i++) {
            long current = remainder << 32 | limbs[i];
            limbs[i] = current / divisor;
            remainder = current % divisor;
        }
        high = limbs[0] << 32 | limbs[1];
        low = limbs[2] << 32 | limbs[3];
    }

    /** Changes the scale of this unscaled value, rounding HALF_UP when digits are dropped; 22003 when it grows past 128 bits. */
    public Int128 rescale(int fromScale, int toScale) {
        return toScale >= fromScale ? scaleUp(toScale - fromScale) : scaleDownHalfUp(fromScale - toScale);
    }

    /** 22003 unless |this| < 10^precision; {@code what} names the type in the message. */
    public Int128 checkPrecision(int precision, int scale, String what) {
        if (!fitsPrecision(precision)) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value " + toBigDecimal(scale).toPlainString() + " is out of range for " + what);
        }
        return this;
    }

    public boolean fitsPrecision(int precision) {
        long h = high;
        long l = low;
        if (h < 0) {
            h = ~high + (low == 0 ? 1 : 0);
            l = -low;
        }
        int c = Long.compareUnsigned(h, POW10_HIGH[precision]);
        return c < 0 || c == 0 && Long.compareUnsigned(l, POW10_LOW[precision]) < 0;
    }

    /** Signed comparison of (aHigh, aLow) with (bHigh, bLow). */
    public static int compare(long aHigh, long aLow, long bHigh, long bLow) {
        int c = Long.compare(aHigh, bHigh);
        return c != 0 ? c : Long.compareUnsigned(aLow, bLow);
    }

    /**
     * The value divided by 10^scale as a double, as DuckDB converts a HUGEINT-backed DECIMAL: the
     * words in double arithmetic (a high word of -1 apart, to keep small negatives exact), then
     * divided by the double nearest 10^scale.
     */
    public static double toDouble(long high, long low, int scale) {
        double value = high == -1 ? -unsignedToDouble(-1L - low) - 1 : unsignedToDouble(low) + high * TWO_POW_64;
        return value / POW10_DOUBLE[scale];
    }

    /** An unsigned long rounded to the nearest double (halving with a sticky bit keeps the rounding single). */
    private static double unsignedToDouble(long v) {
        return v >= 0 ? (double) v : ((v >>> 1) | (v & 1)) * 2.0;
    }

    public BigDecimal toBigDecimal(int scale) {
        return toBigDecimal(high, low, scale);
    }

    public static BigDecimal toBigDecimal(long high, long low, int scale) {
        if (high == low >> 63) {
            return BigDecimal.valueOf(low, scale);
        }
        return new BigDecimal(toBigInteger(high, low), scale);
    }

    public static BigInteger toBigInteger(long high, long low) {
        BigInteger unsignedLow = BigInteger.valueOf(low >>> 1).shiftLeft(1).or(BigInteger.valueOf(low & 1));
        return BigInteger.valueOf(high).shiftLeft(64).or(unsignedLow);
    }

    /** This := the unscaled value {@code v}, or 22003 when it needs more than 128 bits. */
    public Int128 set(BigInteger v) {
        if (v.bitLength() > 127) {
            throw Decimals.outOfRange();
        }
        return set(v.shiftRight(64).longValue(), v.longValue());
    }

    /** Unsigned high word of a 64 x 64 bit product (Math.unsignedMultiplyHigh is Java 18). */
    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    @Override
    public String toString() {
        return toBigInteger(high, low).toString();
    }
}
