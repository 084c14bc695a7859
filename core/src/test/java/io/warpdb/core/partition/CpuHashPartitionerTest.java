package io.warpdb.core.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU's hash partitioning, the reference of every {@link HashPartitioner}: the hash of each
 * key type as {@link HashPartitioner} documents it, NULL keys to part 0, parts in input order.
 */
class CpuHashPartitionerTest {
    private final RootAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeaks() {
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory left allocated");
        allocator.close();
    }

    @Test
    void partsKeepTheInputOrderAndNullKeysGoToPartZero() {
        Schema schema = Schema.of(new Field("k", DataType.BIGINT), new Field("row", DataType.INTEGER));
        List<Object[]> rows = new ArrayList<>();
        for (int r = 0; r < 500; r++) {
            rows.add(new Object[] {r % 7 == 0 ? null : (long) (r % 23), (long) r});
        }
        try (Batch batch = batch(schema, rows, null)) {
            List<Batch> parts = HashPartitioner.cpu().split(batch, List.of(0), 3, allocator);
            try {
                assertEquals(3, parts.size());
                int total = 0;
                for (int p = 0; p < 3; p++) {
                    Batch part = parts.get(p);
                    total += part.rowCount();
                    int previous = -1;
                    for (int r = 0; r < part.rowCount(); r++) {
                        int row = (Integer) part.getObject(1, r);
                        Object key = part.getObject(0, r);
                        assertEquals(key == null ? 0 : Math.floorMod(Murmur3.hashLong((Long) key, 0), 3), p, "part of row " + row);
                        assertEquals(true, row > previous, "input order in part " + p);
                        previous = row;
                    }
                }
                assertEquals(rows.size(), total);
            } finally {
                parts.forEach(Batch::close);
            }
        }
    }

    @Test
    void eachKeyTypeHashesAsDocumented() {
        Schema schema = Schema.of(new Field("i", DataType.INTEGER), new Field("b", DataType.BIGINT), new Field("d", DataType.DATE),
                new Field("x", DataType.DOUBLE), new Field("w", DataType.decimal(38, 2)), new Field("s", DataType.VARCHAR),
                new Field("t", DataType.BOOLEAN));
        StringDictionary dictionary = StringDictionary.ofValues(new String[] {"zero", "", "é-accent"});
        List<Object[]> rows = List.of(
                new Object[] {-5L, -5L, -5L, -0.0, BigInteger.ONE.shiftLeft(100).negate(), 2, true},
                new Object[] {7L, 7L, 7L, Double.NaN, BigInteger.valueOf(-3), 1, false},
                new Object[] {Long.valueOf(Integer.MIN_VALUE), Long.MAX_VALUE, 19000L, 1.5, BigInteger.TEN.pow(37), 0, true});
        try (Batch batch = batch(schema, rows, dictionary)) {
            int parts = 1 << 30;
            for (int r = 0; r < rows.size(); r++) {
                Object[] row = rows.get(r);
                long i = ((Number) row[0]).longValue();
                assertEquals(Math.floorMod(Murmur3.hashLong(i, 0), parts), CpuHashPartitioner.partsOf(batch, List.of(0), parts)[r]);
                assertEquals(Math.floorMod(Murmur3.hashLong((Long) row[1], 0), parts), CpuHashPartitioner.partsOf(batch, List.of(1), parts)[r]);
                assertEquals(Math.floorMod(Murmur3.hashLong((Long) row[2], 0), parts), CpuHashPartitioner.partsOf(batch, List.of(2), parts)[r]);
                double x = (Double) row[3];
                long bits = Double.isNaN(x) ? 0x7ff8000000000000L : x == 0 ? 0 : Double.doubleToRawLongBits(x);
                assertEquals(Math.floorMod(Murmur3.hashLong(bits, 0), parts), CpuHashPartitioner.partsOf(batch, List.of(3), parts)[r]);
                BigInteger w = (BigInteger) row[4];
                long low = w.longValue();
                long high = w.shiftRight(64).longValue();
                int wide = Murmur3.hashLong(low ^ Murmur3.hashLong(high, 0), 0);
                assertEquals(Math.floorMod(wide, parts), CpuHashPartitioner.partsOf(batch, List.of(4), parts)[r]);
                String s = dictionary.get((Integer) row[5]);
                assertEquals(Math.floorMod(Murmur3.hashString(s, 0), parts), CpuHashPartitioner.partsOf(batch, List.of(5), parts)[r]);
                long t = (Boolean) row[6] ? 1 : 0;
                assertEquals(Math.floorMod(Murmur3.hashLong(t, 0), parts), CpuHashPartitioner.partsOf(batch, List.of(6), parts)[r]);
                int first = Murmur3.hashLong(i, 0);
                int combined = Murmur3.hashLong(((long) first << 32) | (Murmur3.hashString(s, 0) & 0xffffffffL), 0);
                combined = Murmur3.hashLong(((long) combined << 32) | (wide & 0xffffffffL), 0);
                assertEquals(Math.floorMod(combined, parts), CpuHashPartitioner.partsOf(batch, List.of(0, 5, 4), parts)[r], "three keys");
            }
        }
    }

    @Test
    void aNullInAnyKeyColumnSendsTheRowToPartZero() {
        Schema schema = Schema.of(new Field("a", DataType.BIGINT), new Field("b", DataType.BIGINT));
        try (Batch batch = batch(schema, List.of(new Object[] {12345L, null}, new Object[] {null, 12345L}), null)) {
            for (int r = 0; r < 2; r++) {
                assertEquals(0, CpuHashPartitioner.partsOf(batch, List.of(0, 1), 64)[r]);
            }
        }
    }

    @Test
    void withoutADeviceOrWhenNotAskedTheCpuPartitions() {
        assertSame(HashPartitioner.cpu(), HashPartitioner.choose(false));
        // core's own class path offers no accelerator
        assertSame(HashPartitioner.cpu(), HashPartitioner.choose(true));
        assertEquals("cpu", HashPartitioner.cpu().name());
    }

    /** A batch of {@code rows} in the normalized literal form (string columns: codes into {@code dictionary}). */
    private Batch batch(Schema schema, List<Object[]> rows, StringDictionary dictionary) {
        List<FieldVector> vectors = new ArrayList<>();
        StringDictionary[] dictionaries = new StringDictionary[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            FieldVector v = Vectors.allocate(schema.field(c).name(), schema.type(c), rows.size(), allocator);
            for (int r = 0; r < rows.size(); r++) {
                Vectors.setNormalized(v, schema.type(c), r, rows.get(r)[c]);
            }
            v.setValueCount(rows.size());
            vectors.add(v);
            if (schema.type(c).kind().isString()) {
                dictionaries[c] = dictionary;
            }
        }
        return new Batch(schema, vectors, Arrays.asList(dictionaries), rows.size());
    }
}
