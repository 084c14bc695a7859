package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * Rows in {@link io.warpdb.core.expr.Literal}'s normalized form (Boolean; Long for INTEGER,
 * BIGINT, DATE days, unscaled DECIMAL; Double; String; null), to and from batches.
 */
final class TestData {
    private TestData() {
    }

    /** A batch of {@code rows}; string columns get a dictionary with unused and repeated entries. */
    static Batch batch(Schema schema, List<List<Object>> rows, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dicts = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            DataType type = schema.type(c);
            FieldVector v = Vectors.allocate(schema.field(c).name(), type, rows.size(), allocator);
            StringDictionary dict = null;
            if (type.kind().isString()) {
                List<String> values = new ArrayList<>(List.of("unused"));
                for (List<Object> row : rows) {
                    values.add(row.get(c) == null ? "null" : (String) row.get(c));
                }
                values.add("unused too");
                dict = StringDictionary.ofValues(values.toArray(new String[0]));
            }
            for (int r = 0; r < rows.size(); r++) {
                Object value = rows.get(r).get(c);
                Vectors.setNormalized(v, type, r, value == null ? null : type.kind().isString() ? (Object) (r + 1) : value);
            }
            v.setValueCount(rows.size());
            vectors.add(v);
            dicts.add(dict);
        }
        return new Batch(schema, vectors, dicts, rows.size());
    }

    static BatchStream stream(Schema schema, List<List<Object>> rows, BufferAllocator allocator) {
        return Batches.of(schema, List.of(batch(schema, rows, allocator)));
    }

    static List<List<Object>> read(TableSource source, BufferAllocator allocator) {
        return read(source, IntStream.range(0, source.schema().size()).boxed().toList(), List.of(), allocator);
    }

    static List<List<Object>> read(TableSource source, List<Integer> columns, List<ColumnPredicate> predicates,
            BufferAllocator allocator) {
        return rows(source.scan(columns, predicates, allocator));
    }

    /** The rows of a stream, which this closes. */
    static List<List<Object>> rows(BatchStream stream) {
        List<List<Object>> out = new ArrayList<>();
        try (BatchStream s = stream) {
            for (Batch next = s.next(); next != null; next = s.next()) {
                try (Batch b = next) {
                    for (int r = 0; r < b.rowCount(); r++) {
                        List<Object> row = new ArrayList<>();
                        for (int c = 0; c < b.columnCount(); c++) {
                            row.add(value(b, c, r));
                        }
                        out.add(row);
                    }
                }
            }
        }
        return out;
    }

    static Object value(Batch b, int c, int r) {
        FieldVector v = b.vector(c);
        if (v.isNull(r)) {
            return null;
        }
        return switch (b.schema().type(c).kind()) {
            case BOOLEAN -> ((BitVector) v).get(r) != 0;
            case INTEGER -> (long) ((IntVector) v).get(r);
            case DATE -> (long) ((DateDayVector) v).get(r);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> ((BigIntVector) v).get(r);
            case DOUBLE -> ((Float8Vector) v).get(r);
            case VARCHAR, CHAR -> b.dictionary(c).get(((IntVector) v).get(r));
        };
    }

    static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
