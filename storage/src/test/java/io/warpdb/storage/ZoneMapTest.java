package io.warpdb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/** A zone map may only rule out a chunk when no row of it can satisfy the predicate. */
class ZoneMapTest {
    /** The zone map a segment of these values gets. */
    private static ZoneMap of(DataType type, Object... values) {
        Schema schema = Schema.of(new Field("x", type));
        try (BufferAllocator a = new RootAllocator(); SegmentBuilder builder = new SegmentBuilder("t", schema, 100, a, () -> 1)) {
            builder.add(TestData.batch(schema, Arrays.stream(values).map(TestData::row).toList(), a));
            return builder.finish().get(0).zoneMaps().get(0);
        }
    }

    private static boolean may(ZoneMap z, DataType type, Comparison op, Literal value, long rows) {
        return z.mayMatch(new ColumnPredicate(0, op, value), type, rows);
    }

    @Test
    void integerRangesPruneComparisonsOutsideThem() {
        ZoneMap z = of(DataType.INTEGER, 10L, null, 20L, 15L);
        assertEquals(new ZoneMap(1, 10L, 20L), z);
        Literal five = Literal.ofLong(5, DataType.INTEGER);
        Literal ten = Literal.ofLong(10, DataType.INTEGER);
        Literal twenty = Literal.ofLong(20, DataType.INTEGER);
        assertFalse(may(z, DataType.INTEGER, Comparison.EQ, five, 4));
        assertTrue(may(z, DataType.INTEGER, Comparison.EQ, ten, 4));
        assertFalse(may(z, DataType.INTEGER, Comparison.LT, ten, 4));
        assertTrue(may(z, DataType.INTEGER, Comparison.LE, ten, 4));
        assertFalse(may(z, DataType.INTEGER, Comparison.GT, twenty, 4));
        assertTrue(may(z, DataType.INTEGER, Comparison.GE, twenty, 4));
        assertTrue(may(z, DataType.INTEGER, Comparison.IS_NULL, null, 4));
        assertTrue(may(z, DataType.INTEGER, Comparison.IS_NOT_NULL, null, 4));
    }

    @Test
    void allNullChunksMatchOnlyIsNull() {
        ZoneMap z = of(DataType.BIGINT, null, null);
        assertNull(z.min());
        assertFalse(may(z, DataType.BIGINT, Comparison.EQ, Literal.ofLong(1, DataType.BIGINT), 2));
        assertFalse(may(z, DataType.BIGINT, Comparison.IS_NOT_NULL, null, 2));
        assertTrue(may(z, DataType.BIGINT, Comparison.IS_NULL, null, 2));
        assertFalse(may(of(DataType.BIGINT, 1L), DataType.BIGINT, Comparison.IS_NULL, null, 1));
    }

    @Test
    void doublesWithNanAreNeverPrunedAndNegativeZeroEqualsZero() {
        ZoneMap nan = of(DataType.DOUBLE, 1.0, Double.NaN);
        assertTrue(may(nan, DataType.DOUBLE, Comparison.GT, new Literal(100.0, DataType.DOUBLE), 2));
        ZoneMap zero = of(DataType.DOUBLE, -0.0);
        assertTrue(may(zero, DataType.DOUBLE, Comparison.EQ, new Literal(0.0, DataType.DOUBLE), 1));
        ZoneMap inf = of(DataType.DOUBLE, 1.0, Double.POSITIVE_INFINITY);
        assertTrue(may(inf, DataType.DOUBLE, Comparison.GT, new Literal(1e300, DataType.DOUBLE), 2));
        assertFalse(may(inf, DataType.DOUBLE, Comparison.LT, new Literal(1.0, DataType.DOUBLE), 2));
    }

    @Test
    void numbersCompareExactlyAcrossTypesAndScales() {
        DataType money = DataType.decimal(10, 2);
        ZoneMap z = of(money, 150L, 250L); // 1.50 .. 2.50
        assertTrue(may(z, money, Comparison.EQ, new Literal(2.5, DataType.DOUBLE), 2));
        assertFalse(may(z, money, Comparison.GT, new Literal(2.5, DataType.DOUBLE), 2));
        assertTrue(may(z, money, Comparison.GT, new Literal(2.4999, DataType.DOUBLE), 2));
        assertFalse(may(z, money, Comparison.GE, Literal.ofLong(3, DataType.INTEGER), 2));
        assertTrue(may(z, money, Comparison.LE, new Literal(15L, DataType.decimal(3, 1)), 2)); // 1.5
        assertFalse(may(z, money, Comparison.LT, new Literal(15L, DataType.decimal(3, 1)), 2));
        ZoneMap ints = of(DataType.BIGINT, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        assertFalse(may(ints, DataType.BIGINT, Comparison.EQ, Literal.ofLong(Long.MAX_VALUE - 2, DataType.BIGINT), 2));
    }

    @Test
    void stringsBooleansAndDatesCompareByValue() {
        DataType text = DataType.varchar(10);
        ZoneMap s = of(text, "banana", "apple", null, "cherry");
        assertEquals(new ZoneMap(1, "apple", "cherry"), s);
        assertFalse(may(s, text, Comparison.EQ, Literal.ofString("date"), 4));
        assertTrue(may(s, text, Comparison.EQ, Literal.ofString("banana"), 4));
        assertFalse(may(s, text, Comparison.LT, Literal.ofString("apple"), 4));
        ZoneMap b = of(DataType.BOOLEAN, true, true);
        assertFalse(may(b, DataType.BOOLEAN, Comparison.EQ, Literal.ofBoolean(false), 2));
        ZoneMap d = of(DataType.DATE, 9000L, 9100L);
        assertFalse(may(d, DataType.DATE, Comparison.GT, Literal.ofLong(9100, DataType.DATE), 2));
        // A literal of another kind is never used to prune.
        assertTrue(may(d, DataType.DATE, Comparison.EQ, Literal.ofString("1995-01-01"), 2));
    }

    @Test
    void emptyPredicateListsAndForeignColumnsKeepEverything() {
        // Never read, so it needs neither cache nor chunks.
        MemorySegment seg = new MemorySegment(null, new BuiltSegment(1, "t", 1, List.of(new ZoneMap(0, 1L, 1L)), List.of(), List.of()), null);
        Schema schema = Schema.of(new Field("x", DataType.BIGINT));
        assertTrue(seg.mayMatch(List.of(), schema));
        assertTrue(seg.mayMatch(List.of(new ColumnPredicate(Table.ROW_ID, Comparison.EQ, Literal.ofLong(5, DataType.BIGINT))), schema));
        assertFalse(seg.mayMatch(List.of(new ColumnPredicate(0, Comparison.EQ, Literal.ofLong(5, DataType.BIGINT))), schema));
    }

    @Test
    void wideDecimalRangesPrune() {
        DataType wide = DataType.decimal(38, 2);
        java.math.BigInteger big = java.math.BigInteger.TEN.pow(37);
        ZoneMap z = of(wide, big, null, big.negate(), java.math.BigInteger.ONE);
        assertEquals(new ZoneMap(1, big.negate(), big), z);
        assertFalse(may(z, wide, Comparison.GT, new Literal(big, wide), 4));
        assertTrue(may(z, wide, Comparison.GE, new Literal(big, wide), 4));
        // A narrow literal against the wide range: 10^35 (scale 2 units) is inside it.
        assertTrue(may(z, wide, Comparison.EQ, Literal.ofLong(1, DataType.BIGINT), 4));
        assertFalse(may(z, wide, Comparison.LT, new Literal(big.negate().subtract(java.math.BigInteger.ONE), wide), 4));
    }
}
