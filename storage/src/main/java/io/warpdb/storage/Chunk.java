package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * An immutable run of rows of one table, column by column, in storage-owned Arrow memory.
 * String columns are dictionary-encoded with a chunk-local dictionary of distinct values.
 */
final class Chunk implements AutoCloseable {
    private final List<FieldVector> vectors;
    private final List<StringDictionary> dictionaries;
    private final int rowCount;

    Chunk(List<FieldVector> vectors, List<StringDictionary> dictionaries, int rowCount) {
        this.vectors = List.copyOf(vectors);
        this.dictionaries = new ArrayList<>(dictionaries);
        this.rowCount = rowCount;
    }

    int rowCount() {
        return rowCount;
    }

    /**
     * The given columns as a batch allocated to {@code allocator}. Buffers are shared, not
     * copied: Arrow reference counts keep them alive after the chunk itself is dropped.
     */
    Batch read(Schema tableSchema, List<Integer> columns, BufferAllocator allocator) {
        List<FieldVector> out = new ArrayList<>(columns.size());
        List<StringDictionary> dicts = new ArrayList<>(columns.size());
        for (int c : columns) {
            TransferPair pair = vectors.get(c).getTransferPair(allocator);
            pair.splitAndTransfer(0, rowCount);
            out.add((FieldVector) pair.getTo());
            dicts.add(dictionaries.get(c));
        }
        return new Batch(tableSchema.select(columns), out, dicts, rowCount);
    }

    long bytes() {
        long sum = 0;
        for (FieldVector v : vectors) {
            sum += v.getBufferSize();
        }
        return sum;
    }

    @Override
    public void close() {
        vectors.forEach(FieldVector::close);
    }
}
