package io.warpdb.tpch;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/** Turns the rows of a cursor into one batch of WarpDB's physical vectors. */
public final class BatchBuilder {
    /** Vectors start this small and double as rows come, so small tables stay small in storage. */
    private static final int INITIAL_CAPACITY = 1024;

    private BatchBuilder() {
    }

    /** All remaining rows of {@code rows} as a batch allocated from {@code allocator}; strings get batch-local dictionaries. */
    public static Batch read(Schema schema, RowCursor rows, BufferAllocator allocator) {
        int columns = schema.size();
        List<FieldVector> vectors = new ArrayList<>(columns);
        Utf8Dictionary[] dictionaries = new Utf8Dictionary[columns];
        try {
            for (int c = 0; c < columns; c++) {
                vectors.add(Vectors.allocate(schema.field(c).name(), schema.type(c), INITIAL_CAPACITY, allocator));
                if (schema.type(c).kind().isString()) {
                    dictionaries[c] = new Utf8Dictionary(INITIAL_CAPACITY, 16 * INITIAL_CAPACITY);
                }
            }
            int row = 0;
            while (rows.next()) {
                for (int c = 0; c < columns; c++) {
                    if (rows.isNull(c)) {
                        vectors.get(c).setNull(row);
                    } else {
                        set(vectors.get(c), schema.type(c), dictionaries[c], rows, c, row);
                    }
                }
                row++;
            }
            List<StringDictionary> built = new ArrayList<>(columns);
            for (int c = 0; c < columns; c++) {
                vectors.get(c).setValueCount(row);
                built.add(dictionaries[c] == null ? null : StringDictionary.ofUtf8(dictionaries[c].build(), true));
            }
            return new Batch(schema, vectors, built, row);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }

    private static void set(FieldVector vector, DataType type, Utf8Dictionary dictionary, RowCursor rows, int column, int row) {
        switch (type.kind()) {
            case INTEGER -> ((IntVector) vector).setSafe(row, Math.toIntExact(rows.getLong(column)));
            case BIGINT, DECIMAL -> ((BigIntVector) vector).setSafe(row, rows.getLong(column));
            case DATE -> ((DateDayVector) vector).setSafe(row, rows.getDate(column));
            case CHAR, VARCHAR -> ((IntVector) vector).setSafe(row, rows.addString(column, dictionary));
            default -> throw new IllegalStateException("benchmark tables have no " + type + " column");
        }
    }
}
