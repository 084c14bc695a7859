package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Random;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/** 128-bit arithmetic against BigInteger on random and boundary values: exact results, or 22003 exactly when beyond 128 bits. */
class Int128Test {
    private static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
    private static final BigInteger MAX = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

    private static BigInteger[] samples() {
        Random random = new Random(7);
        BigInteger[] out = new BigInteger[120];
        BigInteger[] edges = {BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate(), MIN, MAX, MIN.add(BigInteger.ONE),
            BigInteger.ONE.shiftLeft(64), BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(63).negate(),
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE), BigInteger.TEN.pow(38).subtract(BigInteger.ONE),
            BigInteger.TEN.pow(19), BigInteger.TEN.pow(19).negate()};
        for (int i = 0; i < out.length; i++) {
            out[i] = i < edges.length ? edges[i] : new BigInteger(1 + random.nextInt(127), random).multiply(
                    BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
        }
        return out;
    }

    private static Int128 of(BigInteger v) {
        return new Int128().set(v);
    }

    private static BigInteger value(Int128 v) {
        return Int128.toBigInteger(v.high, v.low);
    }

    private static void check(BigInteger expected, java.util.function.Supplier<Int128> actual) {
        if (expected.compareTo(MIN) < 0 || expected.compareTo(MAX) > 0) {
            WarpException e = assertThrows(WarpException.class, actual::get, "expected overflow for " + expected);
            assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.state());
        } else {
            assertEquals(expected, value(actual.get()));
        }
    }

    private static void binary(BinaryOperator<BigInteger> exact, java.util.function.BiFunction<Int128, Int128, Int128> op) {
        for (BigInteger a : samples()) {
            for (BigInteger b : samples()) {
                check(exact.apply(a, b), () -> op.apply(of(a), of(b)));
            }
        }
    }

    @Test
    void addSubtractAndMultiplyAreExactOrOverflow() {
        binary(BigInteger::add, (a, b) -> a.add(b.high, b.low));
        binary(BigInteger::subtract, (a, b) -> a.subtract(b.high, b.low));
        binary(BigInteger::multiply, (a, b) -> a.multiply(b.high, b.low));
        for (BigInteger a : samples()) {
            check(a.negate(), () -> of(a).negate());
        }
    }

    /** Sums of the upper words (any sign) and of the lower words (not negative) joined: exact, or 22003 beyond 128 bits. */
    @Test
    void wordSumsJoinIntoTheSumOrOverflow() {
        for (BigInteger upper : samples()) {
            for (BigInteger lower : samples()) {
                if (lower.signum() >= 0) {
                    Int128 u = of(upper);
                    Int128 l = of(lower);
                    check(upper.shiftLeft(64).add(lower), () -> new Int128().setWordSums(u.high, u.low, l.high, l.low));
                }
            }
        }
    }

    @Test
    void rescalingRoundsHalfAwayFromZero() {
        for (BigInteger a : samples()) {
            for (int digits : new int[] {1, 2, 9, 10, 18, 19, 30, 38, 39}) {
                BigInteger down = new BigDecimal(a).divide(BigDecimal.TEN.pow(digits), 0, RoundingMode.HALF_UP).toBigIntegerExact();
                assertEquals(down, value(of(a).scaleDownHalfUp(digits)), a + " / 10^" + digits);
                if (digits <= 38) {
                    check(a.multiply(BigInteger.TEN.pow(digits)), () -> of(a).scaleUp(digits));
                }
            }
        }
    }

    @Test
    void comparesConvertsAndChecksPrecisionsAsBigIntegerDoes() {
        for (BigInteger a : samples()) {
            for (BigInteger b : samples()) {
                Int128 x = of(a);
                Int128 y = of(b);
                assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(Int128.compare(x.high, x.low, y.high, y.low)));
            }
            Int128 x = of(a);
            for (int scale : new int[] {0, 2, 38}) {
                // As DuckDB: the words in double arithmetic, then one division, so within a few units of the last place.
                double exact = new BigDecimal(a, scale).doubleValue();
                assertEquals(exact, Int128.toDouble(x.high, x.low, scale), Math.abs(exact) * 1e-15, a + " scale " + scale);
            }
            assertEquals(a.abs().compareTo(BigInteger.TEN.pow(38)) < 0, x.fitsPrecision(38), a.toString());
        }
    }
}
