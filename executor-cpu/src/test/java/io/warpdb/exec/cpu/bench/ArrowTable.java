package io.warpdb.exec.cpu.bench;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongBinaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;

/**
 * A table of BIGINT columns held as Arrow batches of 64 Ki rows, built once; a scan shares the
 * batches' buffers (no copy, no decoding), so benchmarks measure the operators alone.
 */
final class ArrowTable implements TableSource, AutoCloseable {
    private static final int BATCH_ROWS = 64 * 1024;

    private final Schema schema;
    private final List<Batch> batches = new ArrayList<>();
    private final long rows;

    /** Columns named {@code names}; the value of column c in row r is {@code value.applyAsLong(c, r)}. */
    ArrowTable(long rows, LongBinaryOperator value, BufferAllocator allocator, String... names) {
        List<Field> fields = new ArrayList<>();
        for (String name : names) {
            fields.add(new Field(name, DataType.BIGINT));
        }
        this.schema = new Schema(fields);
        this.rows = rows;
        for (long from = 0; from < rows; from += BATCH_ROWS) {
            int count = (int) Math.min(BATCH_ROWS, rows - from);
            List<FieldVector> vectors = new ArrayList<>();
            List<StringDictionary> dictionaries = new ArrayList<>();
            for (int c = 0; c < names.length; c++) {
                BigIntVector v = (BigIntVector) Vectors.allocate(names[c], DataType.BIGINT, count, allocator);
                for (int i = 0; i < count; i++) {
                    v.set(i, value.applyAsLong(c, from + i));
                }
                v.setValueCount(count);
                vectors.add(v);
                dictionaries.add(null);
            }
            batches.add(new Batch(schema, vectors, dictionaries, count));
        }
    }

    @Override
    public String name() {
        return "bench";
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
        Schema out = schema.select(columns);
        List<Batch> shared = new ArrayList<>();
        for (Batch b : batches) {
            List<FieldVector> vectors = new ArrayList<>();
            List<StringDictionary> dictionaries = new ArrayList<>();
            for (int c : columns) {
                vectors.add(BatchRows.share(b.vector(c), b.rowCount(), allocator));
                dictionaries.add(null);
            }
            shared.add(new Batch(out, vectors, dictionaries, b.rowCount()));
        }
        return Batches.of(out, shared);
    }

    @Override
    public void close() {
        batches.forEach(Batch::close);
    }
}
