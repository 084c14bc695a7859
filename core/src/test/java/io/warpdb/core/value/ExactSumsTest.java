package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExactSumsTest {
    private static final DataType DECIMAL_18_4 = DataType.decimal(18, 4);

    @Test
    void sumsTakeTheResultScale() {
        assertEquals(12_500, ExactSums.value(0, 125, 2, 3, false, DECIMAL_18_4));
        assertEquals(-13, ExactSums.value(-1, -125, 2, 3, false, DataType.decimal(18, 1)));
    }

    @Test
    void averagesRoundHalfUpForDecimalsAndTruncateForIntegers() {
        assertEquals(66_667, ExactSums.value(0, 20, 0, 3, true, DECIMAL_18_4));
        assertEquals(6, ExactSums.value(0, 20, 0, 3, true, DataType.BIGINT));
        assertEquals(-6, ExactSums.value(-1, -20, 0, 3, true, DataType.BIGINT));
    }

    @Test
    void sumsBeyondSixtyFourBitsAreExact() {
        // 2^64 over 4 is 2^62; 2^64 itself does not fit.
        assertEquals(1L << 62, ExactSums.value(1, 0, 0, 4, true, DataType.BIGINT));
        WarpException e = assertThrows(WarpException.class, () -> ExactSums.value(1, 0, 0, 4, false, DataType.BIGINT));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.state());
        assertEquals("numeric value out of range", e.getMessage());
    }

    @Test
    void integerResultsMustFitThirtyTwoBits() {
        WarpException e = assertThrows(WarpException.class, () -> ExactSums.value(0, 1L << 31, 0, 1, false, DataType.INTEGER));
        assertEquals("integer out of range: 2147483648", e.getMessage());
    }

    @Test
    void valuesAgreeWithBigDecimal() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            long low = random.nextLong() >> random.nextInt(64);
            long high = random.nextInt(3) == 0 ? random.nextInt(5) - 2 : low >> 63;
            int inputScale = random.nextInt(7);
            long count = 1 + random.nextInt(1000);
            boolean average = random.nextBoolean();
            DataType type = random.nextBoolean() ? DataType.BIGINT : DataType.decimal(18, random.nextInt(9));
            BigDecimal sum = new BigDecimal(BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low))),
                    inputScale);
            int scale = Decimals.scaleOf(type);
            RoundingMode rounding = type.equals(DataType.BIGINT) ? RoundingMode.DOWN : RoundingMode.HALF_UP;
            BigDecimal expected = average ? sum.divide(BigDecimal.valueOf(count), scale, rounding)
                    : sum.setScale(scale, RoundingMode.HALF_UP);
            assertEquals(sum, ExactSums.toBigDecimal(high, low, inputScale));
            if (expected.unscaledValue().bitLength() <= 63) {
                assertEquals(expected.unscaledValue().longValueExact(), ExactSums.value(high, low, inputScale, count, average, type));
            } else {
                assertThrows(WarpException.class, () -> ExactSums.value(high, low, inputScale, count, average, type));
            }
        }
    }
}
