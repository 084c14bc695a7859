package io.warpdb.storage;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.storage.encoding.DecodedColumn;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * A segment whose columns are Arrow vectors in storage-owned memory: the whole table in an
 * in-memory catalog, and a segment on its way to a file in a durable one. String columns hold
 * codes into a segment-local dictionary of exactly the values used.
 */
final class MemorySegment extends Segment {
    private final List<FieldVector> vectors;
    private final List<StringDictionary> dictionaries;

    MemorySegment(long id, String table, int rowCount, List<ZoneMap> zoneMaps, List<FieldVector> vectors,
            List<StringDictionary> dictionaries) {
        super(id, table, rowCount, zoneMaps);
        this.vectors = List.copyOf(vectors);
        this.dictionaries = new ArrayList<>(dictionaries); // holds nulls, which List.copyOf rejects
    }

    FieldVector vector(int column) {
        return vectors.get(column);
    }

    StringDictionary dictionary(int column) {
        return dictionaries.get(column);
    }

    @Override
    protected DecodedColumn readColumn(int c, BufferAllocator allocator) {
        return new DecodedColumn(slice(vectors.get(c), 0, rowCount(), allocator), dictionaries.get(c));
    }

    @Override
    long bytes(int column) {
        return vectors.get(column).getBufferSize();
    }

    @Override
    String encoding(int column) {
        return "arrow";
    }

    @Override
    protected void free() {
        vectors.forEach(FieldVector::close);
    }
}
