package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Test batches with a column of every type: runs, steps, wide values, -0.0 and NULLs (every 7th row from the 4th). */
final class EveryType {
    static final Schema SCHEMA = new Schema(List.of(new Field("b", DataType.BOOLEAN), new Field("i", DataType.INTEGER),
            new Field("l", DataType.BIGINT), new Field("d", DataType.DOUBLE), new Field("m", DataType.decimal(12, 2)),
            new Field("w", DataType.decimal(38, 4)), new Field("day", DataType.DATE), new Field("ts", DataType.TIMESTAMP),
            new Field("span", DataType.INTERVAL), new Field("s", DataType.varchar(10)), new Field("c", DataType.chars(3))));
    static final StringDictionary STRINGS = StringDictionary.ofValues(new String[] {"ann", "bob", "", "zoë", "unused"});

    private EveryType() {
    }

    /** {@code rows} rows of {@link #SCHEMA}, allocated to {@code allocator}. */
    static Batch batch(int rows, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        for (Field f : SCHEMA.fields()) {
            FieldVector v = Vectors.allocate(f.name(), f.type(), rows, allocator);
            for (int r = 0; r < rows; r++) {
                Vectors.setNormalized(v, f.type(), r, r % 7 == 3 ? null : value(f.type(), r));
            }
            v.setValueCount(rows);
            vectors.add(v);
            dictionaries.add(f.type().kind().isString() ? STRINGS : null);
        }
        return new Batch(SCHEMA, vectors, dictionaries, rows);
    }

    private static Object value(DataType type, int r) {
        if (type.isWideDecimal()) {
            return BigInteger.TEN.pow(30).multiply(BigInteger.valueOf(r % 2 == 0 ? r : -r)).add(BigInteger.valueOf(r));
        }
        return switch (type.kind()) {
            case BOOLEAN -> r % 3 == 0;
            case INTEGER -> r / 10 - 50;
            case BIGINT -> r % 2 == 0 ? Long.MAX_VALUE - r : Long.MIN_VALUE + r;
            case DOUBLE -> r % 5 == 0 ? -0.0 : r * 1.5;
            case DECIMAL -> 100_00L + r * 25L;
            case DATE -> 19_000L + r / 100;
            case TIMESTAMP -> 1_700_000_000_000_000L + r * 1_000_000L;
            case INTERVAL -> (long) r * 86_400_000_000L;
            case VARCHAR, CHAR -> r % 4;
        };
    }
}
