package io.warpdb.core.batch;

import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/** Small stream adapters shared by executors and storage. */
public final class Batches {
    private Batches() {
    }

    /** Appends each row of {@code batch} to {@code rows} as the Java values {@link Batch#getObject} gives. */
    public static void addRows(Batch batch, List<List<Object>> rows) {
        for (int r = 0; r < batch.rowCount(); r++) {
            List<Object> row = new ArrayList<>(batch.columnCount());
            for (int c = 0; c < batch.columnCount(); c++) {
                row.add(batch.getObject(c, r));
            }
            rows.add(row);
        }
    }

    /** Every remaining row of {@code stream} as Java values, closing each batch once read (not the stream). */
    public static List<List<Object>> drainRows(BatchStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch b = stream.next(); b != null; b = stream.next()) {
            try (Batch batch = b) {
                addRows(batch, rows);
            }
        }
        return rows;
    }

    /** Rows [from, from + count) of {@code batch} as a new batch (zero-copy where Arrow can slice), charged to {@code allocator}. */
    public static Batch slice(Batch batch, int from, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.columnCount());
        try {
            for (FieldVector v : batch.vectors()) {
                TransferPair pair = v.getTransferPair(allocator);
                pair.splitAndTransfer(from, count);
                vectors.add((FieldVector) pair.getTo());
            }
            return new Batch(batch.schema(), vectors, batch.dictionaries(), count);
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }

    /**
     * Every batch of {@code stream}, which is closed; {@code afterEach} runs after each batch (a
     * cancellation check). On failure the batches read so far are closed too.
     */
    public static List<Batch> readAll(BatchStream stream, Runnable afterEach) {
        List<Batch> batches = new ArrayList<>();
        try (stream) {
            for (Batch b = stream.next(); b != null; b = stream.next()) {
                batches.add(b);
                afterEach.run();
            }
            return batches;
        } catch (RuntimeException | Error e) {
            batches.forEach(Batch::close);
            throw e;
        }
    }

    /** One row of BIGINT {@code values}, one per column of {@code schema} (counters a node reports to another). */
    public static Batch longRow(Schema schema, BufferAllocator allocator, long... values) {
        List<FieldVector> vectors = new ArrayList<>(values.length);
        try {
            for (int c = 0; c < values.length; c++) {
                BigIntVector v = new BigIntVector(schema.field(c).name(), allocator);
                vectors.add(v);
                v.allocateNew(1);
                v.set(0, values[c]);
                v.setValueCount(1);
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, Arrays.asList(new StringDictionary[values.length]), 1);
    }

    /** A stream over batches already in hand; batches not yet pulled are closed with the stream. */
    public static BatchStream of(Schema schema, List<Batch> batches) {
        return new BatchStream() {
            private final Iterator<Batch> it = new ArrayList<>(batches).iterator();

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public Batch next() {
                return it.hasNext() ? it.next() : null;
            }

            @Override
            public void close() {
                while (it.hasNext()) {
                    it.next().close();
                }
            }
        };
    }
}
