package io.warpdb.core.batch;

import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * A set of equally long Arrow vectors, one per schema field. The batch owns its vectors and
 * {@link #close()} releases them. String columns hold int32 codes; their dictionaries are
 * kept alongside (null for other columns).
 */
public final class Batch implements AutoCloseable {
    private final Schema schema;
    private final List<FieldVector> vectors;
    private final List<StringDictionary> dictionaries;
    private final int rowCount;

    public Batch(Schema schema, List<FieldVector> vectors, List<StringDictionary> dictionaries, int rowCount) {
        if (vectors.size() != schema.size() || dictionaries.size() != schema.size()) {
            throw new IllegalArgumentException("schema has " + schema.size() + " fields but batch has "
                    + vectors.size() + " vectors and " + dictionaries.size() + " dictionaries");
        }
        for (int i = 0; i < vectors.size(); i++) {
            if (schema.type(i).kind().isString() && dictionaries.get(i) == null) {
                throw new IllegalArgumentException("string column " + schema.field(i).name() + " has no dictionary");
            }
        }
        this.schema = schema;
        this.vectors = List.copyOf(vectors);
        this.dictionaries = java.util.Collections.unmodifiableList(new ArrayList<>(dictionaries));
        this.rowCount = rowCount;
    }

    public Schema schema() {
        return schema;
    }

    public int rowCount() {
        return rowCount;
    }

    public int columnCount() {
        return vectors.size();
    }

    public FieldVector vector(int column) {
        return vectors.get(column);
    }

    public List<FieldVector> vectors() {
        return vectors;
    }

    /** The dictionary of a string column; null for other columns. */
    public StringDictionary dictionary(int column) {
        return dictionaries.get(column);
    }

    public List<StringDictionary> dictionaries() {
        return dictionaries;
    }

    /** The value at (column,row) as the Java object JDBC returns; see {@link Vectors#getObject}. */
    public Object getObject(int column, int row) {
        return Vectors.getObject(vectors.get(column), schema.type(column), dictionaries.get(column), row);
    }

    /**
     * The given columns as a new batch allocated to {@code allocator}, sharing this batch's
     * buffers (Arrow reference counts keep them alive after this batch is closed).
     */
    public Batch project(List<Integer> columns, BufferAllocator allocator) {
        List<FieldVector> out = new ArrayList<>(columns.size());
        List<StringDictionary> dicts = new ArrayList<>(columns.size());
        for (int c : columns) {
            TransferPair pair = vectors.get(c).getTransferPair(allocator);
            pair.splitAndTransfer(0, rowCount);
            out.add((FieldVector) pair.getTo());
            dicts.add(dictionaries.get(c));
        }
        return new Batch(schema.select(columns), out, dicts, rowCount);
    }

    @Override
    public void close() {
        for (FieldVector v : vectors) {
            v.close();
        }
    }
}
