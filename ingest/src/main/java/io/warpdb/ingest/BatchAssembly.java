package io.warpdb.ingest;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * The columns of one batch being loaded: Java arrays until {@link #build} makes the batch's
 * vectors; then {@link #reset} makes it ready for the next batch, with the same arrays.
 */
final class BatchAssembly {
    private final Schema schema;
    private final List<ColumnParser> columns;

    /** Room for {@code capacity} rows to begin with; more rows grow the columns. */
    BatchAssembly(Schema schema, int capacity, BufferAllocator allocator) {
        this.schema = schema;
        this.columns = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            columns.add(new ColumnParser(schema.field(c).name(), schema.type(c), capacity, allocator));
        }
    }

    Schema schema() {
        return schema;
    }

    /** Empties the assembly for the next batch; the batches built before keep their own vectors and dictionaries. */
    void reset() {
        columns.forEach(ColumnParser::reset);
    }

    ColumnParser column(int c) {
        return columns.get(c);
    }

    /** The first {@code rows} rows as a batch, which then owns the vectors. */
    Batch build(int rows) {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        List<StringDictionary> dictionaries = new ArrayList<>(columns.size());
        try {
            for (ColumnParser column : columns) {
                vectors.add(column.finish(rows));
                dictionaries.add(column.dictionary());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, dictionaries, rows);
    }
}
