package io.warpdb.core.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimestampsTest {
    @Test
    void textAndPartsAgreeWithJavaTimeOnRandomInstants() {
        Random random = new Random(21);
        for (int i = 0; i < 10_000; i++) {
            // Years 1..9999, to the microsecond, on both sides of 1970.
            long micros = Timestamps.parse("0001-01-01 00:00:00") + (long) (random.nextDouble() * 315_537_897_600_000_000L);
            LocalDateTime t = Timestamps.toLocalDateTime(micros);
            assertEquals(micros, Timestamps.of(t));
            assertEquals(micros, Timestamps.parse(Timestamps.format(micros)));
            assertEquals(t.getHour(), Timestamps.hour(micros));
            assertEquals(t.getMinute(), Timestamps.minute(micros));
            assertEquals(t.getSecond(), Timestamps.second(micros));
            assertEquals(t.toLocalDate().toEpochDay(), Timestamps.epochDay(micros));
            assertEquals(Timestamps.of(t.truncatedTo(ChronoUnit.HOURS)), Timestamps.truncate(micros, Timestamps.Unit.HOUR));
            assertEquals(Timestamps.of(t.toLocalDate().withDayOfMonth(1).atStartOfDay()), Timestamps.truncate(micros, Timestamps.Unit.MONTH));
            assertEquals(Timestamps.of(t.plusMonths(13)), Timestamps.addMonths(micros, 13));
        }
    }

    @Test
    void formatDropsTrailingZerosOfTheFraction() {
        assertEquals("1969-12-31 23:59:59.999999", Timestamps.format(-1));
        assertEquals("1970-01-01 00:00:00.1", Timestamps.format(100_000));
        assertEquals("1970-01-01 00:00:00", Timestamps.format(0));
    }

    @Test
    void intervalsAreWrittenAsDuckDbWritesThem() {
        long day = Timestamps.MICROS_PER_DAY;
        assertEquals("00:00:00", Timestamps.formatInterval(0));
        assertEquals("1 day", Timestamps.formatInterval(day));
        assertEquals("-1 day -03:00:00", Timestamps.formatInterval(-day - 3 * Timestamps.MICROS_PER_HOUR));
        assertEquals("61 days 03:04:05.25", Timestamps.formatInterval(61 * day + 11_045_250_000L));
        assertEquals("-19723 days -00:00:00.000001", Timestamps.formatInterval(-19723 * day - 1));
        assertEquals("-02:30:00", Timestamps.formatInterval(-9_000_000_000L));
    }

    @Test
    void unitsAreNamedAsDuckDbNamesThem() {
        assertEquals(Timestamps.Unit.MINUTE, Timestamps.Unit.of(" Minutes "));
        WarpException e = assertThrows(WarpException.class, () -> Timestamps.Unit.of("fortnight"));
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.state());
        WarpException overflow = assertThrows(WarpException.class, () -> Timestamps.addMicros(Long.MAX_VALUE, 1));
        assertEquals(SqlState.DATETIME_FIELD_OVERFLOW, overflow.state());
    }
}
