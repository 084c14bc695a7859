package io.warpdb.core.value;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.time.LocalDate;

/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), without
 * allocating objects, so that per-row loops over DATE columns stay primitive, and the ISO text
 * form of dates. The conversions are Howard Hinnant's {@code civil_from_days} /
 * {@code days_from_civil}; the GPU interpreter repeats them (vm.cuh; VmConstantsTest checks its constants).
 */
public final class Dates {
    /** The day number of 0000-03-01, negated: the calendar counts from a March 1st, so February ends a year. */
    public static final int DAYS_FROM_0000_03_01_TO_EPOCH = 719_468;
    public static final int DAYS_PER_400_YEARS = 146_097;

    private Dates() {
    }

    /** The date as {@code year << 16 | month << 8 | day}; decode with {@link #year}, {@link #month}, {@link #day}. */
    public static long civil(long epochDay) {
        long z = epochDay + DAYS_FROM_0000_03_01_TO_EPOCH;
        long era = Math.floorDiv(z, DAYS_PER_400_YEARS);
        long dayOfEra = z - era * DAYS_PER_400_YEARS;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        long month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return year << 16 | month << 8 | day;
    }

    public static long year(long civil) {
        return civil >> 16;
    }

    public static int month(long civil) {
        return (int) (civil >> 8 & 0xff);
    }

    public static int day(long civil) {
        return (int) (civil & 0xff);
    }

    /** The day number of a calendar date (month 1..12, day 1..31). */
    public static long epochDay(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * DAYS_PER_400_YEARS + dayOfEra - DAYS_FROM_0000_03_01_TO_EPOCH;
    }

    /** Whether year-month-day is a calendar date: month 1..12, day within the month (as {@link LocalDate#of} checks). */
    public static boolean isValid(long year, int month, int day) {
        return month >= 1 && month <= 12 && day >= 1 && day <= lengthOfMonth(year, month);
    }

    public static int lengthOfMonth(long year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    public static boolean isLeapYear(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    /** 1-based day of the year. */
    public static long dayOfYear(long epochDay) {
        return epochDay - epochDay(year(civil(epochDay)), 1, 1) + 1;
    }

    /** Day of the week, 0 = Sunday .. 6 = Saturday (1970-01-01 was a Thursday). */
    public static long dayOfWeek(long epochDay) {
        return Math.floorMod(epochDay + 4, 7);
    }

    /** Adds months, clamping the day to the end of the target month (Jan 31 + 1 month = Feb 28/29). */
    public static long addMonths(long epochDay, long months) {
        long civil = civil(epochDay);
        long monthIndex = Decimals.add(Decimals.multiply(year(civil), 12) + month(civil) - 1, months);
        long year = Math.floorDiv(monthIndex, 12);
        int month = Math.floorMod(monthIndex, 12) + 1;
        return epochDay(year, month, Math.min(day(civil), lengthOfMonth(year, month)));
    }

    /**
     * A date as ISO-8601 writes it (yyyy-mm-dd, years beyond 9999 with a sign) as its day number;
     * {@link java.time.format.DateTimeParseException} otherwise.
     */
    public static long parse(CharSequence text) {
        return LocalDate.parse(text).toEpochDay();
    }

    /**
     * YYYY-MM-DD for years 0..9999; later years with all their digits and no sign (10000-11-30, as
     * PostgreSQL and DuckDB write them), years before 0 as ISO-8601 writes them (-0001-12-31).
     */
    public static String format(long epochDay) {
        long civil = civil(epochDay);
        long year = year(civil);
        if (year < 0 || year > 9999) {
            String iso = LocalDate.ofEpochDay(epochDay).toString();
            return iso.startsWith("+") ? iso.substring(1) : iso;
        }
        char[] c = new char[10];
        writeDigits(c, 0, year, 4);
        c[4] = '-';
        writeDigits(c, 5, month(civil), 2);
        c[7] = '-';
        writeDigits(c, 8, day(civil), 2);
        return new String(c);
    }

    private static void writeDigits(char[] out, int at, long value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** A day number as the int32 that DATE vectors hold; 22003 beyond that range. */
    public static long checkDate(long epochDay) {
        if ((int) epochDay != epochDay) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "date out of range");
        }
        return epochDay;
    }
}
