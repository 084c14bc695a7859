package io.warpdb.core.value;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * SUM and AVG of exact values (INTEGER, BIGINT, DECIMAL) finished from their sum, which both
 * executors keep exactly in 128 bits (a high and a low long): SUM at the result's scale, AVG
 * divided by the count rounded HALF_UP for a DECIMAL result and truncated for an integer one,
 * 22003 when the value does not fit the result type (a wide DECIMAL SUM: {@link #wideValue}). DOUBLE
 * results are {@link ExactQuotients}'.
 */
public final class ExactSums {
    private ExactSums() {
    }

    /**
     * The aggregate's value in the physical form of {@code type} (INTEGER, BIGINT or DECIMAL).
     *
     * @param high       the upper 64 bits of the two's-complement 128-bit unscaled sum
     * @param low        its lower 64 bits
     * @param inputScale the sum's decimal scale (0 for integers)
     * @param count      the number of values summed, positive
     * @param average    AVG (divide by {@code count}) rather than SUM
     */
    public static long value(long high, long low, int inputScale, long count, boolean average, DataType type) {
        int resultScale = Decimals.scaleOf(type);
        RoundingMode rounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
        long value;
        if (high == low >> 63) {
            // The common case (millions of groups are finished here) stays on longs.
            value = average ? Decimals.divideScaled(low, inputScale, count, 0, resultScale, rounding)
                    : Decimals.rescale(low, inputScale, resultScale);
        } else {
            BigDecimal sum = toBigDecimal(high, low, inputScale);
            value = Decimals.unscaledExact(average ? sum.divide(BigDecimal.valueOf(count), resultScale, rounding)
                    : sum.setScale(resultScale, RoundingMode.HALF_UP));
        }
        return Decimals.checkFits(value, type);
    }

    /**
     * A SUM's value as the wide DECIMAL {@code type} (more than 18 digits), written into {@code into}:
     * the 128-bit sum at the result's scale; 22003 beyond the type's precision.
     */
    public static Int128 wideValue(long high, long low, int inputScale, DataType type, Int128 into) {
        return into.set(high, low).rescale(inputScale, type.scale()).checkPrecision(type.precision(), type.scale(), type.sqlName());
    }

    /** The 128-bit two's-complement unscaled value {@code high * 2^64 + unsigned low} at {@code scale}. */
    public static BigDecimal toBigDecimal(long high, long low, int scale) {
        BigInteger unsignedLow = new BigInteger(Long.toUnsignedString(low));
        return new BigDecimal(BigInteger.valueOf(high).shiftLeft(64).add(unsignedLow), scale);
    }
}
