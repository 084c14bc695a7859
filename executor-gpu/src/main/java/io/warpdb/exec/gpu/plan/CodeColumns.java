package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * The entries of one dictionary (row i holds code i) as a table for the host evaluator.
 */
final class CodeColumns implements TableSource {
    private final Schema schema;
    private final List<StringDictionary> dictionaries;
    private final List<int[]> codes;
    /** Per column, the NULL rows (null: none). */
    private final List<boolean[]> nulls;
    private final int rows;

    private CodeColumns(List<DataType> types, List<StringDictionary> dictionaries, List<int[]> codes, List<boolean[]> nulls) {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < types.size(); c++) {
            fields.add(new Field("c" + c, types.get(c)));
        }
        this.schema = new Schema(fields);
        this.dictionaries = dictionaries;
        this.codes = codes;
        this.nulls = nulls;
        this.rows = codes.get(0).length;
    }

    /** One column: every entry of {@code dictionary}. */
    static CodeColumns entries(DataType type, StringDictionary dictionary) {
        int[] all = IntStream.range(0, dictionary.size()).toArray();
        return new CodeColumns(List.of(type), List.of(dictionary), List.of(all), java.util.Collections.singletonList(null));
    }

    @Override
    public String name() {
        return "string codes";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return rows;
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (int c = 0; c < schema.size(); c++) {
                IntVector v = new IntVector(schema.field(c).name(), allocator);
                vectors.add(v);
                v.allocateNew(Math.max(1, rows));
                int[] column = codes.get(c);
                boolean[] isNull = nulls.get(c);
                for (int i = 0; i < rows; i++) {
                    if (isNull != null && isNull[i]) {
                        v.setNull(i);
                    } else {
                        v.set(i, column[i]);
                    }
                }
                v.setValueCount(rows);
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        Batch batch = new Batch(schema, vectors, dictionaries, rows);
        return Batches.of(schema, List.of(batch));
    }
}
