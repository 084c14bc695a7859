package io.warpdb.ingest;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.Schema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Record batches of an Arrow reader (an Arrow IPC file or stream, or a Parquet scan) converted
 * to the table's columns, matched by position. Values convert when they fit the column exactly;
 * one that does not fails the load with its row and column.
 */
final class ArrowSource implements LoadSource {
    private final Path file;
    private final ArrowFileReaders.Opened opened;
    private final ArrowReader reader;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final long fileBytes;
    private long rows;
    private boolean done;

    /** Takes ownership of {@code opened}. */
    ArrowSource(Path file, ArrowFileReaders.Opened opened, Schema schema, BufferAllocator allocator, long fileBytes) {
        this.file = file;
        this.opened = opened;
        this.reader = opened.reader();
        this.schema = schema;
        this.allocator = allocator;
        this.fileBytes = fileBytes;
        try {
            int columns = reader.getVectorSchemaRoot().getFieldVectors().size();
            if (columns != schema.size()) {
                throw new WarpException(SqlState.BAD_COPY_FILE_FORMAT, file + ": the file has " + columns
                        + " columns, the table " + schema.size());
            }
        } catch (IOException e) {
            close();
            throw InputFiles.failure(file, e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public LoadedPart next() {
        try {
            if (done || !reader.loadNextBatch()) {
                done = true;
                return null;
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            int count = root.getRowCount();
            List<FieldVector> vectors = root.getFieldVectors();
            BatchAssembly batch = new BatchAssembly(schema, count, allocator);
            for (int c = 0; c < schema.size(); c++) {
                FieldVector v = vectors.get(c);
                for (int r = 0; r < count; r++) {
                    try {
                        batch.column(c).set(v.getObject(r), r);
                    } catch (BadValueException | ArithmeticException e) {
                        throw new WarpException(e instanceof BadValueException b ? b.state() : SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                                file + ": row " + (rows + r + 1) + ", column " + schema.field(c).name() + ": expected "
                                        + (e instanceof BadValueException b ? b.expected() : "a " + schema.type(c).sqlName()
                                        + " value in range") + ", found '" + v.getObject(r) + "'");
                    }
                }
            }
            rows += count;
            return new LoadedPart(count == 0 ? null : batch.build(count), List.of());
        } catch (IOException e) {
            throw InputFiles.failure(file, e);
        }
    }

    @Override
    public long bytesRead() {
        return done ? fileBytes : 0;
    }

    @Override
    public void close() {
        opened.close();
    }
}
