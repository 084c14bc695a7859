package io.warpdb.exec.gpu.plan;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;

/** The entries of a string dictionary as a one-column table (row i holds code i), for per-entry evaluation. */
final class DictionaryEntries implements TableSource {
    private final Schema schema;
    private final StringDictionary dictionary;

    DictionaryEntries(DataType type, StringDictionary dictionary) {
        this.schema = Schema.of(new Field("entry", type));
        this.dictionary = dictionary;
    }

    @Override
    public String name() {
        return "dictionary entries";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public long rowCount() {
        return dictionary.size();
    }

    @Override
    public BatchStream scan(List<Integer> columns, BufferAllocator allocator) {
        IntVector codes = new IntVector("entry", allocator);
        codes.allocateNew(Math.max(1, dictionary.size()));
        for (int i = 0; i < dictionary.size(); i++) {
            codes.set(i, i);
        }
        codes.setValueCount(dictionary.size());
        Batch batch = new Batch(schema, List.of(codes), java.util.Collections.singletonList(dictionary), dictionary.size());
        return Batches.of(schema, List.of(batch));
    }
}
