package io.warpdb.exec.gpu.aggregate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.warpdb.exec.gpu.sort.KeyColumn.KeyRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The path rule and the key-packing arithmetic (no GPU needed). */
class PathRuleTest {
    private static KeyRange range(long min, long max, long nulls) {
        return new KeyRange(min, max, nulls, 10);
    }

    @Test
    void keysPackLowFirstWithNullAsOnePastTheLargestValue() {
        KeyPacking p = KeyPacking.of(List.of(range(10, 13, 0), range(0, 1, 5)), 1000);
        assertArrayEquals(new long[] {10, 0}, p.mins());
        assertArrayEquals(new long[] {0, 2}, p.shifts());
        assertArrayEquals(new long[] {4, 2}, p.nullCodes());
        assertEquals(4, p.bits());
        assertEquals(4 * 3, p.groupBound());
        assertEquals(32, p.tableSlots());
    }

    @Test
    void allNullKeyTakesNoBits() {
        KeyPacking p = KeyPacking.of(List.of(new KeyRange(-1L, 0, 7, 0)), 7);
        assertEquals(0, p.bits());
        assertEquals(1, p.groupBound());
        assertEquals(2, p.tableSlots());
    }

    @Test
    void groupBoundIsCappedByRowsAndSaturates() {
        KeyPacking p = KeyPacking.of(List.of(range(0, (1L << 30) - 1, 0), range(0, (1L << 30) - 1, 0)), 100);
        assertEquals(60, p.bits());
        assertEquals(100, p.groupBound());
        assertEquals(256, p.tableSlots());
    }

    @Test
    void widerThan63BitsDoesNotPack() {
        assertNull(KeyPacking.of(List.of(range(0, -1L, 0)), 10));
        assertNull(KeyPacking.of(List.of(range(0, 1L << 62, 0), range(0, 3, 0)), 10));
        assertNull(KeyPacking.of(List.of(range(0, -1L, 1)), 10));
    }

    @Test
    void pathRule() {
        assertEquals(AggregationPath.UNGROUPED, PathRule.choose(0, null));
        assertEquals(AggregationPath.HASH, PathRule.choose(1, KeyPacking.of(List.of(range(0, 1000, 1)), 1 << 20)));
        assertEquals(AggregationPath.SORT, PathRule.choose(1, null));
        assertEquals(AggregationPath.SORT,
                PathRule.choose(1, KeyPacking.of(List.of(range(0, 1L << 40, 0)), 1L << 30)));
    }

    @Test
    void orderedKeysDecode() {
        assertEquals(-5, AggregateResults.decode(-5L ^ Long.MIN_VALUE, io.warpdb.exec.gpu.sort.KeyColumn.INT64));
        long bits = Double.doubleToLongBits(-2.5);
        assertEquals(bits, AggregateResults.decode(~bits, io.warpdb.exec.gpu.sort.KeyColumn.F64_ORDER));
        bits = Double.doubleToLongBits(2.5);
        assertEquals(bits, AggregateResults.decode(bits | Long.MIN_VALUE, io.warpdb.exec.gpu.sort.KeyColumn.F64_ORDER));
    }
}
