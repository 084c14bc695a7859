package io.warpdb.ingest;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/** The columns of one batch being loaded; closing it before {@link #build} frees them. */
final class BatchAssembly implements AutoCloseable {
    private final Schema schema;
    private final List<ColumnParser> columns;
    private boolean built;

    BatchAssembly(Schema schema, int capacity, BufferAllocator allocator) {
        this.schema = schema;
        this.columns = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                columns.add(new ColumnParser(schema.field(c).name(), schema.type(c), capacity, allocator));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    ColumnParser column(int c) {
        return columns.get(c);
    }

    /** The first {@code rows} rows as a batch, which then owns the vectors. */
    Batch build(int rows) {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        List<StringDictionary> dictionaries = new ArrayList<>(columns.size());
        for (ColumnParser column : columns) {
            vectors.add(column.finish(rows));
            dictionaries.add(column.dictionary());
        }
        built = true;
        return new Batch(schema, vectors, dictionaries, rows);
    }

    @Override
    public void close() {
        if (!built) {
            columns.forEach(ColumnParser::close);
        }
    }
}
