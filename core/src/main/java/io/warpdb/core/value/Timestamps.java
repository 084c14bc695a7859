package io.warpdb.core.value;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * TIMESTAMP values: microseconds since 1970-01-01 00:00:00, without a time zone, as one int64.
 * Calendar parts come from {@link Dates} on the day number ({@code floorDiv} by a day's
 * microseconds), so per-row loops stay primitive. The text form is DuckDB's and PostgreSQL's:
 * {@code YYYY-MM-DD HH:MM:SS}, followed by the fraction of a second without trailing zeros.
 */
public final class Timestamps {
    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    /** The units {@code date_trunc} rounds down to, smallest first. */
    public enum Unit {
        MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, DECADE, CENTURY, MILLENNIUM;

        /** The unit a name (any case, singular or plural, as DuckDB accepts them) spells; 22023 otherwise. */
        public static Unit of(String name) {
            String n = name.strip().toUpperCase(Locale.ROOT);
            if (n.endsWith("S")) {
                n = n.substring(0, n.length() - 1);
            }
            for (Unit u : values()) {
                if (u.name().equals(n)) {
                    return u;
                }
            }
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "unknown date part '" + name + "'");
        }
    }

    private Timestamps() {
    }

    /** The day number of a timestamp (the date it falls on). */
    public static long epochDay(long micros) {
        return Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** Microseconds since midnight. */
    public static long timeOfDay(long micros) {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }

    /** Midnight of a day number; 22008 beyond the range of TIMESTAMP (int64 microseconds, about 292,000 years). */
    public static long ofEpochDay(long epochDay) {
        try {
            return Math.multiplyExact(epochDay, MICROS_PER_DAY);
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    public static long hour(long micros) {
        return timeOfDay(micros) / MICROS_PER_HOUR;
    }

    public static long minute(long micros) {
        return timeOfDay(micros) / MICROS_PER_MINUTE % 60;
    }

    public static long second(long micros) {
        return timeOfDay(micros) / MICROS_PER_SECOND % 60;
    }

    /** Seconds and their fraction within the minute, in microseconds (EXTRACT(MICROSECOND), as DuckDB gives it). */
    public static long microsOfMinute(long micros) {
        return timeOfDay(micros) % MICROS_PER_MINUTE;
    }

    /** Whole seconds since the epoch (rounded down). */
    public static long epochSecond(long micros) {
        return Math.floorDiv(micros, MICROS_PER_SECOND);
    }

    /** Adds a number of microseconds; 22008 on overflow. */
    public static long addMicros(long micros, long amount) {
        try {
            return Math.addExact(micros, amount);
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
    }

    /** Adds months to the date part, clamping the day to the end of the month; the time of day stays. */
    public static long addMonths(long micros, long months) {
        long day = Dates.addMonths(epochDay(micros), months);
        return addMicros(ofEpochDay(day), timeOfDay(micros));
    }

    /**
     * The timestamp rounded down to the start of its {@code unit}, as DuckDB rounds: weeks start on
     * Monday, centuries and millennia on years divisible by 100 and 1000 (2000-01-01).
     */
    public static long truncate(long micros, Unit unit) {
        long day = epochDay(micros);
        long civil = Dates.civil(day);
        long year = Dates.year(civil);
        return switch (unit) {
            case MICROSECOND -> micros;
            case MILLISECOND -> micros - Math.floorMod(micros, 1000L);
            case SECOND -> micros - Math.floorMod(micros, MICROS_PER_SECOND);
            case MINUTE -> micros - Math.floorMod(micros, MICROS_PER_MINUTE);
            case HOUR -> micros - Math.floorMod(micros, MICROS_PER_HOUR);
            case DAY -> ofEpochDay(day);
            case WEEK -> ofEpochDay(day - Math.floorMod(day + 3, 7));
            case MONTH -> ofEpochDay(Dates.epochDay(year, Dates.month(civil), 1));
            case QUARTER -> ofEpochDay(Dates.epochDay(year, (Dates.month(civil) - 1) / 3 * 3 + 1, 1));
            case YEAR -> ofEpochDay(Dates.epochDay(year, 1, 1));
            case DECADE -> ofEpochDay(Dates.epochDay(Math.floorDiv(year, 10) * 10, 1, 1));
            case CENTURY -> ofEpochDay(Dates.epochDay(Math.floorDiv(year, 100) * 100, 1, 1));
            case MILLENNIUM -> ofEpochDay(Dates.epochDay(Math.floorDiv(year, 1000) * 1000, 1, 1));
        };
    }

    /**
     * Parses {@code YYYY-MM-DD[( |T)HH:MM[:SS[.f...]]]} (up to 6 fraction digits; a date alone
     * is its midnight); {@link DateTimeParseException} for anything else.
     */
    public static long parse(CharSequence text) {
        String s = text.toString();
        int split = indexOfTimeSeparator(s);
        long day = Dates.parse(split < 0 ? s : s.substring(0, split));
        long time = split < 0 ? 0 : parseTime(s, split + 1);
        try {
            return addMicros(ofEpochDay(day), time);
        } catch (WarpException outOfRange) {
            throw new DateTimeParseException("timestamp out of range", s, 0);
        }
    }

    private static int indexOfTimeSeparator(String s) {
        int space = s.indexOf(' ');
        return space >= 0 ? space : s.indexOf('T');
    }

    /** HH:MM[:SS[.f...]] from {@code at} to the end, in microseconds. */
    private static long parseTime(String s, int at) {
        int[] pos = {at};
        long hour = digits(s, pos, 2);
        expect(s, pos, ':');
        long minute = digits(s, pos, 2);
        long second = 0;
        long fraction = 0;
        if (pos[0] < s.length()) {
            expect(s, pos, ':');
            second = digits(s, pos, 2);
            if (pos[0] < s.length()) {
                expect(s, pos, '.');
                int start = pos[0];
                long f = 0;
                while (pos[0] < s.length() && Character.isDigit(s.charAt(pos[0])) && pos[0] - start < 6) {
                    f = f * 10 + (s.charAt(pos[0]++) - '0');
                }
                int count = pos[0] - start;
                if (count == 0 || pos[0] < s.length()) {
                    throw new DateTimeParseException("bad fraction of a second", s, pos[0]);
                }
                fraction = f * Pow10.of(6 - count);
            }
        }
        if (hour > 23 || minute > 59 || second > 59) {
            throw new DateTimeParseException("time of day out of range", s, at);
        }
        return hour * MICROS_PER_HOUR + minute * MICROS_PER_MINUTE + second * MICROS_PER_SECOND + fraction;
    }

    private static long digits(String s, int[] pos, int count) {
        long v = 0;
        for (int i = 0; i < count; i++) {
            if (pos[0] >= s.length() || !Character.isDigit(s.charAt(pos[0]))) {
                throw new DateTimeParseException("expected a digit", s, pos[0]);
            }
            v = v * 10 + (s.charAt(pos[0]++) - '0');
        }
        return v;
    }

    private static void expect(String s, int[] pos, char c) {
        if (pos[0] >= s.length() || s.charAt(pos[0]) != c) {
            throw new DateTimeParseException("expected '" + c + "'", s, pos[0]);
        }
        pos[0]++;
    }

    /** {@code YYYY-MM-DD HH:MM:SS[.ffffff]}, the fraction without trailing zeros (none when whole). */
    public static String format(long micros) {
        StringBuilder b = new StringBuilder(26).append(Dates.format(epochDay(micros))).append(' ');
        return clock(b, timeOfDay(micros)).toString();
    }

    /**
     * An INTERVAL of {@code micros} as DuckDB writes the difference of two timestamps: whole days
     * ({@code 1 day}, {@code -61 days}), then the rest of the day as {@code [-]HH:MM:SS[.ffffff]}
     * with the days' sign; {@code 00:00:00} for none.
     */
    public static String formatInterval(long micros) {
        long days = micros / MICROS_PER_DAY;
        long rest = micros % MICROS_PER_DAY;
        StringBuilder b = new StringBuilder();
        if (days != 0) {
            b.append(days).append(days == 1 || days == -1 ? " day" : " days");
        }
        if (rest != 0) {
            if (days != 0) {
                b.append(' ');
            }
            clock(rest < 0 ? b.append('-') : b, Math.abs(rest));
        } else if (days == 0) {
            b.append("00:00:00");
        }
        return b.toString();
    }

    /** {@code HH:MM:SS[.ffffff]} of a time within a day (non-negative microseconds), the fraction without trailing zeros. */
    private static StringBuilder clock(StringBuilder b, long time) {
        two(b, time / MICROS_PER_HOUR).append(':');
        two(b, time / MICROS_PER_MINUTE % 60).append(':');
        two(b, time / MICROS_PER_SECOND % 60);
        long fraction = time % MICROS_PER_SECOND;
        if (fraction != 0) {
            String digits = Long.toString(fraction + MICROS_PER_SECOND).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(digits, 0, end);
        }
        return b;
    }

    /** The wall-clock time a timestamp stands for. */
    public static LocalDateTime toLocalDateTime(long micros) {
        return LocalDateTime.of(LocalDate.ofEpochDay(epochDay(micros)),
                LocalTime.ofNanoOfDay(timeOfDay(micros) * 1000));
    }

    /** The timestamp of a wall-clock time (nanoseconds beyond the microsecond are dropped). */
    public static long of(LocalDateTime t) {
        return addMicros(ofEpochDay(t.toLocalDate().toEpochDay()), t.toLocalTime().toNanoOfDay() / 1000);
    }

    private static StringBuilder two(StringBuilder b, long v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    /** The error of a TIMESTAMP beyond int64 microseconds (22008). */
    public static WarpException outOfRange() {
        return new WarpException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range");
    }
}
