package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class Pow10Test {
    @Test
    void everyPowerIsExactAsLongAndAsDouble() {
        for (int n = 0; n <= Pow10.MAX_EXPONENT; n++) {
            assertEquals(BigInteger.TEN.pow(n), BigInteger.valueOf(Pow10.of(n)));
            assertEquals(0, new BigDecimal(Pow10.asDouble(n)).compareTo(new BigDecimal(BigInteger.TEN.pow(n))));
        }
    }

    @Test
    void theNextPowerDoesNotFitALong() {
        assertTrue(BigInteger.TEN.pow(Pow10.MAX_EXPONENT + 1).bitLength() > 63);
    }
}
