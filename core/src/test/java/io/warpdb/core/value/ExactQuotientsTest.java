package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExactQuotientsTest {
    @Test
    void averageOfEqualDecimalsIsTheValue() {
        // Three times -99999.9 at scale 1: -2999997 / 10 / 3, which two roundings made -99999.90000000001.
        assertEquals(-99999.9, ExactQuotients.toDouble(-1, -2999997, 1, 3));
        assertEquals(2.5, ExactQuotients.toDouble(0, 5, 0, 2));
    }

    @Test
    void sumsBeyondSixtyFourBitsDivideExactly() {
        // 2^64 (high 1, low 0) at scale 2, over 4.
        assertEquals(18446744073709551616.0 / 400, ExactQuotients.toDouble(1, 0, 2, 4));
        assertEquals(-18446744073709551616.0 / 400, ExactQuotients.toDouble(-1, 0, 2, 4));
    }

    @Test
    void everyQuotientIsTheNearestDouble() {
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long sum = random.nextLong() >> random.nextInt(64);
            int scale = random.nextInt(19);
            long count = 1 + random.nextInt(1_000_000);
            double expected = new BigDecimal(sum).scaleByPowerOfTen(-scale).divide(BigDecimal.valueOf(count), new MathContext(60))
                    .doubleValue();
            assertEquals(expected, ExactQuotients.toDouble(sum >> 63, sum, scale, count), sum + " / 10^" + scale + " / " + count);
        }
    }
}
