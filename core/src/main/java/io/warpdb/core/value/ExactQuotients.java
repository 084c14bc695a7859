package io.warpdb.core.value;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Exact numbers divided into a DOUBLE, rounded once: AVG of INTEGER, BIGINT and DECIMAL values,
 * whose sum both executors keep exactly in 128 bits. Dividing the sum's double by the count would
 * round twice ({@code AVG} of three {@code -99999.9} was {@code -99999.90000000001}).
 */
public final class ExactQuotients {
    /** Integers up to this magnitude are doubles exactly, so one IEEE division of two of them rounds once. */
    private static final long EXACT_DOUBLE_LIMIT = 1L << 53;
    /** Digits of the quotient before its rounding to a double: far more than a double's 17. */
    private static final MathContext QUOTIENT_DIGITS = new MathContext(40);

    private ExactQuotients() {
    }

    /**
     * {@code (high * 2^64 + unsigned low) / 10^scale / divisor} as the nearest double.
     *
     * @param high    the upper 64 bits of the two's-complement 128-bit unscaled sum
     * @param low     its lower 64 bits
     * @param scale   the sum's decimal scale (0 for integers)
     * @param divisor the count of values (1 for a sum), positive
     */
    public static double toDouble(long high, long low, int scale, long divisor) {
        if (high == low >> 63 && Math.abs(low) <= EXACT_DOUBLE_LIMIT && scale <= 15) {
            long scaleFactor = Pow10.of(scale);
            if (divisor <= EXACT_DOUBLE_LIMIT / scaleFactor) {
                return (double) low / (double) (divisor * scaleFactor);
            }
        }
        return ExactSums.toBigDecimal(high, low, scale).divide(BigDecimal.valueOf(divisor), QUOTIENT_DIGITS).doubleValue();
    }
}
