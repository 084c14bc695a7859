package io.warpdb.sqltest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.sql.Date;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValuesTest {

    @Test
    void doublesHaveThreeDecimals() {
        assertEquals("2.500", Values.renderDouble(2.5));
        assertEquals("3.000", Values.renderDouble(3.0));
        assertEquals("0.333", Values.renderDouble(1.0 / 3));
        assertEquals("0.667", Values.renderDouble(2.0 / 3));
        assertEquals("-1.250", Values.renderDouble(-1.25));
        assertEquals("0.000", Values.renderDouble(-0.0));
        assertEquals("0.000", Values.renderDouble(-0.0001));
        assertEquals("1.001", Values.renderDouble(1.0005));
        assertEquals("100000000000000000000.000", Values.renderDouble(1e20));
        assertEquals("NaN", Values.renderDouble(Double.NaN));
        assertEquals("-Infinity", Values.renderDouble(Double.NEGATIVE_INFINITY));
    }

    @Test
    void decimalsKeepTheirScale() {
        assertEquals("1.50", Values.renderDecimal(new BigDecimal("1.50")));
        assertEquals("1.2100", Values.renderDecimal(new BigDecimal("1.2100")));
        assertEquals("100", Values.renderDecimal(new BigDecimal("1E+2")));
        assertEquals("-0.05", Values.renderDecimal(new BigDecimal("-0.05")));
    }

    @Test
    void otherValues() {
        assertEquals("NULL", Values.renderObject(null));
        assertEquals("(empty)", Values.renderObject(""));
        assertEquals("abc", Values.renderObject("abc"));
        assertEquals("true", Values.renderObject(Boolean.TRUE));
        assertEquals("42", Values.renderObject(42L));
        assertEquals("1996-03-01", Values.renderObject(Date.valueOf("1996-03-01")));
        assertEquals("1996-03-01", Values.renderObject(LocalDate.of(1996, 3, 1)));
    }

    @Test
    void sorting() {
        List<List<String>> rows = List.of(List.of("b", "1"), List.of("a", "2"), List.of("a", "10"));
        assertEquals(List.of(List.of("a", "10"), List.of("a", "2"), List.of("b", "1")), Values.rowSorted(rows));
        assertEquals(List.of(List.of("1"), List.of("10"), List.of("2"), List.of("a"), List.of("a"), List.of("b")),
                Values.valueSorted(rows));
    }
}
