package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import org.junit.jupiter.api.Test;

class DatesTest {
    @Test
    void dayNumbersAndCalendarDatesAreJavaTimes() {
        long from = LocalDate.of(-1000, 1, 1).toEpochDay();
        long to = LocalDate.of(10_400, 12, 31).toEpochDay();
        for (long day = from; day <= to; day += 3) {
            LocalDate expected = LocalDate.ofEpochDay(day);
            long civil = Dates.civil(day);
            assertEquals(expected.getYear(), Dates.year(civil));
            assertEquals(expected.getMonthValue(), Dates.month(civil));
            assertEquals(expected.getDayOfMonth(), Dates.day(civil));
            assertEquals(day, Dates.epochDay(expected.getYear(), expected.getMonthValue(), expected.getDayOfMonth()));
            assertEquals(expected.getDayOfYear(), Dates.dayOfYear(day));
            assertEquals(expected.getDayOfWeek().getValue() % 7, Dates.dayOfWeek(day));
        }
    }

    @Test
    void validDatesAreThoseLocalDateAccepts() {
        for (int year : new int[] {-1, 0, 1900, 2000, 2023, 2024, 9999}) {
            for (int month = -1; month <= 13; month++) {
                for (int day = -1; day <= 32; day++) {
                    assertEquals(isLocalDate(year, month, day), Dates.isValid(year, month, day), year + "-" + month + "-" + day);
                }
            }
        }
    }

    private static boolean isLocalDate(int year, int month, int day) {
        try {
            LocalDate.of(year, month, day);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    @Test
    void addingMonthsClampsTheDayToTheTargetMonth() {
        long jan31 = LocalDate.of(2024, 1, 31).toEpochDay();
        assertEquals(LocalDate.of(2024, 2, 29).toEpochDay(), Dates.addMonths(jan31, 1));
        assertEquals(LocalDate.of(2023, 2, 28).toEpochDay(), Dates.addMonths(jan31, -11));
        assertEquals(LocalDate.of(2025, 3, 31).toEpochDay(), Dates.addMonths(jan31, 14));
    }

    @Test
    void textFormsRoundTrip() {
        assertEquals(LocalDate.of(1996, 3, 1).toEpochDay(), Dates.parse("1996-03-01"));
        assertEquals("1996-03-01", Dates.format(Dates.parse("1996-03-01")));
        assertEquals("0001-01-01", Dates.format(LocalDate.of(1, 1, 1).toEpochDay()));
        assertEquals("10000-11-30", Dates.format(LocalDate.of(10_000, 11, 30).toEpochDay()));
        assertEquals("-0001-12-31", Dates.format(LocalDate.of(-1, 12, 31).toEpochDay()));
        assertThrows(DateTimeParseException.class, () -> Dates.parse("1996-02-30"));
        assertThrows(DateTimeParseException.class, () -> Dates.parse("1996-3-1"));
    }

    @Test
    void dayNumbersBeyondInt32AreOutOfRange() {
        assertEquals(Integer.MAX_VALUE, Dates.checkDate(Integer.MAX_VALUE));
        WarpException e = assertThrows(WarpException.class, () -> Dates.checkDate(Integer.MAX_VALUE + 1L));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, e.state());
        assertEquals("date out of range", e.getMessage());
    }
}
