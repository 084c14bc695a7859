package io.warpdb.core.batch;

import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** Constant rows (a VALUES list) as a batch, each string column with a dictionary of its own; shared by the executors. */
public final class ConstantRows {
    private ConstantRows() {
    }

    /** Rows {@code from} to {@code from + count} of {@code rows} (literals of {@code schema}'s types) as one batch. */
    public static Batch batch(Schema schema, List<List<Literal>> rows, int from, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                FieldVector vector = Vectors.allocate(schema.field(c).name(), type, count, allocator);
                vectors.add(vector);
                StringDictionary.Builder strings = type.kind().isString() ? new StringDictionary.Builder() : null;
                for (int r = 0; r < count; r++) {
                    Object value = rows.get(from + r).get(c).value();
                    boolean isString = strings != null && value != null;
                    Vectors.setNormalized(vector, type, r, isString ? strings.add((String) value) : value);
                }
                vector.setValueCount(count);
                dictionaries.add(strings == null ? null : strings.build());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, dictionaries, count);
    }
}
