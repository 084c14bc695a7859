package io.warpdb.storage;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * A table: a name, a schema and the current committed {@link TableVersion}. Writers build new
 * chunks off to the side and publish them in one step, so readers see all of a write or none.
 */
public final class Table {
    private final String name;
    private final Schema schema;
    private final BufferAllocator allocator;
    private TableVersion current;
    private boolean dropped;

    Table(String name, Schema schema, BufferAllocator allocator) {
        this.name = name;
        this.schema = schema;
        this.allocator = allocator;
        this.current = new TableVersion(this, name, schema, List.of());
    }

    public String name() {
        return name;
    }

    public Schema schema() {
        return schema;
    }

    /** The committed state now; later writes do not change what it returns. */
    public synchronized TableSource snapshot() {
        return current;
    }

    public synchronized long rowCount() {
        return current.rowCount();
    }

    /** Bytes of column data held in memory. */
    public synchronized long bytes() {
        return current.chunks().stream().mapToLong(Chunk::bytes).sum();
    }

    /**
     * Appends every row of {@code rows} (whose columns match the table's, in order) as one
     * atomic commit: on any error, including a NOT NULL violation, nothing is added.
     *
     * @return the number of rows appended
     */
    public long append(BatchStream rows) {
        List<Chunk> built = new ArrayList<>();
        try {
            for (Batch b = rows.next(); b != null; b = rows.next()) {
                try (Batch batch = b) {
                    if (batch.rowCount() > 0) {
                        built.add(encode(batch));
                    }
                }
            }
            synchronized (this) {
                if (dropped) {
                    throw new WarpException(SqlState.UNDEFINED_TABLE, "table " + name + " was dropped during the insert");
                }
                List<Chunk> chunks = new ArrayList<>(current.chunks());
                chunks.addAll(built);
                current = new TableVersion(this, name, schema, chunks);
            }
            long n = built.stream().mapToLong(Chunk::rowCount).sum();
            built = List.of();
            return n;
        } finally {
            built.forEach(Chunk::close);
        }
    }

    private Chunk encode(Batch batch) {
        if (batch.columnCount() != schema.size()) {
            throw new WarpException(SqlState.DATATYPE_MISMATCH, "table " + name + " has " + schema.size()
                    + " columns but " + batch.columnCount() + " values were given");
        }
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dicts = new ArrayList<>();
        try {
            for (int c = 0; c < schema.size(); c++) {
                Field field = schema.field(c);
                FieldVector in = batch.vector(c);
                if (!field.type().nullable() && in.getNullCount() > 0) {
                    throw new WarpException(SqlState.NOT_NULL_VIOLATION, "column " + field.name() + " of table " + name
                            + " is NOT NULL but a NULL value was given");
                }
                if (field.type().kind().isString()) {
                    StringDictionary.Builder dict = new StringDictionary.Builder();
                    vectors.add(recode((IntVector) in, batch.dictionary(c), field, batch.rowCount(), dict));
                    dicts.add(dict.build());
                } else {
                    TransferPair pair = in.getTransferPair(allocator);
                    pair.splitAndTransfer(0, batch.rowCount());
                    vectors.add((FieldVector) pair.getTo());
                    dicts.add(null);
                }
            }
            return new Chunk(vectors, dicts, batch.rowCount());
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
    }

    /** Re-encodes string codes against a chunk-local dictionary holding only the values used. */
    private IntVector recode(IntVector codes, StringDictionary source, Field field, int rows, StringDictionary.Builder dict) {
        DataType type = field.type();
        IntVector out = (IntVector) Vectors.allocate(field.name(), type, rows, allocator);
        int[] remap = new int[source.size()];
        java.util.Arrays.fill(remap, -1);
        for (int r = 0; r < rows; r++) {
            if (codes.isNull(r)) {
                out.setNull(r);
                continue;
            }
            int code = codes.get(r);
            if (remap[code] < 0) {
                remap[code] = dict.add(source.get(code));
            }
            out.set(r, remap[code]);
        }
        out.setValueCount(rows);
        return out;
    }

    synchronized boolean isDropped() {
        return dropped;
    }

    /** Frees the table's memory; running scans fail with a clear error, new ones cannot start. */
    synchronized void drop() {
        dropped = true;
        current.chunks().forEach(Chunk::close);
        current = new TableVersion(this, name, schema, List.of());
    }
}
