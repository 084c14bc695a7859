package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class DecimalsTest {
    @Test
    void scalesAreDecimalsOnly() {
        assertEquals(3, Decimals.scaleOf(DataType.decimal(10, 3)));
        assertEquals(0, Decimals.scaleOf(DataType.BIGINT));
        assertEquals(0, Decimals.scaleOf(DataType.INTEGER));
    }

    @Test
    void rescalingRoundsHalfAwayFromZero() {
        assertEquals(13, Decimals.rescale(125, 2, 1));
        assertEquals(-13, Decimals.rescale(-125, 2, 1));
        assertEquals(12, Decimals.rescale(124, 2, 1));
        assertEquals(12_500, Decimals.rescale(125, 2, 4));
        assertEquals(0, Decimals.rescale(Long.MAX_VALUE, 40, 0));
        assertOutOfRange("numeric value out of range", () -> Decimals.scaleUp(Long.MAX_VALUE / 5, 1));
        assertOutOfRange("numeric value out of range", () -> Decimals.scaleUp(1, Pow10.MAX_EXPONENT + 1));
    }

    @Test
    void arithmeticFailsInsteadOfWrapping() {
        assertOutOfRange("numeric value out of range", () -> Decimals.add(Long.MAX_VALUE, 1));
        assertOutOfRange("numeric value out of range", () -> Decimals.subtract(Long.MIN_VALUE, 1));
        assertOutOfRange("numeric value out of range", () -> Decimals.multiply(1L << 32, 1L << 31));
        assertOutOfRange("numeric value out of range", () -> Decimals.negate(Long.MIN_VALUE));
        // A product beyond 64 bits that rounds back into range.
        assertEquals(Long.MAX_VALUE / 10 + 1, Decimals.multiplyRescaled(Long.MAX_VALUE, 10, 2, 0));
    }

    @Test
    void divisionRoundsAsAsked() {
        assertEquals(33, Decimals.divideScaled(1, 0, 3, 0, 2, RoundingMode.HALF_UP));
        assertEquals(67, Decimals.divideScaled(2, 0, 3, 0, 2, RoundingMode.HALF_UP));
        assertEquals(-66, Decimals.divideScaled(-2, 0, 3, 0, 2, RoundingMode.DOWN));
        assertEquals(-2, Decimals.divide(-7, 4, RoundingMode.HALF_UP));
        assertEquals(-2, Decimals.divide(-7, 4, RoundingMode.FLOOR));
        assertEquals(-1, Decimals.divide(-7, 4, RoundingMode.CEILING));
        // 1 / 3 at scale 30 needs more than 64 bits on the way: BigDecimal's path, then out of range.
        assertOutOfRange("numeric value out of range", () -> Decimals.divideScaled(1, 0, 3, 30, 0, RoundingMode.HALF_UP));
        WarpException e = assertThrows(WarpException.class, () -> Decimals.divideScaled(1, 0, 0, 0, 0, RoundingMode.DOWN));
        assertEquals(SqlState.DIVISION_BY_ZERO, e.state());
        assertEquals("division by zero", e.getMessage());
    }

    @Test
    void comparisonAcrossScalesIsExact() {
        assertEquals(0, Decimals.compare(150, 2, 15, 1));
        assertEquals(-1, Decimals.compare(149, 2, 15, 1));
        assertEquals(1, Decimals.compare(1, 18, -Long.MAX_VALUE, 0));
    }

    @Test
    void doublesConvertWithTiesOnTheirDecimalForm() {
        assertEquals(29, Decimals.fromDouble(0.285, 2));
        assertEquals(-29, Decimals.fromDouble(-0.285, 2));
        assertEquals(1.25, Decimals.toDouble(125, 2));
        assertOutOfRange("value 1.0E19 is out of range", () -> Decimals.fromDouble(1e19, 0));
    }

    @Test
    void roundOfADoubleRoundsItsBinaryProductAsDuckDbDoes() {
        assertEquals(0.28, Decimals.round(0.285, 2), "0.285 * 100 = 28.499999999999996");
        assertEquals(0.57, Decimals.round(0.575, 2));
        assertEquals(-0.28, Decimals.round(-0.285, 2));
        assertEquals(3.0, Decimals.round(2.5, 0), "half away from zero");
        assertEquals(-3.0, Decimals.round(-2.5, 0));
        assertEquals(1240.0, Decimals.round(1235.0, -1));
        assertEquals(Double.MAX_VALUE, Decimals.round(Double.MAX_VALUE, 2), "an infinite product leaves the value");
    }

    @Test
    void declaredTypesBoundTheValue() {
        assertEquals(999, Decimals.checkDeclared(999, DataType.decimal(3, 1)));
        assertOutOfRange("value 100.0 is out of range for DECIMAL(3,1)", () -> Decimals.checkDeclared(1000, DataType.decimal(3, 1)));
        assertOutOfRange("integer out of range: 2147483648", () -> Decimals.checkFits(1L << 31, DataType.INTEGER));
        assertEquals(1L << 31, Decimals.checkFits(1L << 31, DataType.BIGINT));
        assertEquals(-32768, Decimals.checkFits(-32768, DataType.SMALLINT));
        assertOutOfRange("smallint out of range: 32768", () -> Decimals.checkFits(32768, DataType.SMALLINT));
        assertEquals(127, Decimals.checkFits(127, DataType.TINYINT));
        assertOutOfRange("tinyint out of range: -129", () -> Decimals.checkFits(-129, DataType.TINYINT));
        assertOutOfRange("tinyint out of range: " + Long.MIN_VALUE, () -> Decimals.checkFits(Long.MIN_VALUE, DataType.TINYINT));
    }

    private static void assertOutOfRange(String message, Executable action) {
        WarpException e = assertThrows(WarpException.class, action);
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.state());
        assertEquals(message, e.getMessage());
    }
}
