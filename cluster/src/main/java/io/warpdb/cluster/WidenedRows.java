package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * The rows a shard sent of some of a table's columns as rows of all of them: the columns the
 * statement does not read hold placeholders (NULL, or a zero value where the column is NOT NULL),
 * so that the statement validates and plans over the gathered table exactly as over the table.
 * Its plan reads only the columns that were sent.
 */
final class WidenedRows implements BatchStream {
    private static final StringDictionary EMPTY_STRING = StringDictionary.ofValues(new String[] {""});

    private final BatchStream sent;
    private final Schema table;
    private final int[] sentColumn;
    private final BufferAllocator allocator;

    /** {@code sent} holds the columns of {@code table} named alike; closing this closes it. */
    WidenedRows(BatchStream sent, Schema table, BufferAllocator allocator) {
        this.sent = sent;
        this.table = table;
        this.allocator = allocator;
        this.sentColumn = new int[table.size()];
        Schema columns = sent.schema();
        for (int c = 0; c < table.size(); c++) {
            sentColumn[c] = columns.indexOf(table.field(c).name());
        }
    }

    @Override
    public Schema schema() {
        return table;
    }

    @Override
    public Batch next() {
        Batch batch = sent.next();
        if (batch == null) {
            return null;
        }
        try (Batch rows = batch) {
            int count = rows.rowCount();
            List<FieldVector> vectors = new ArrayList<>(table.size());
            List<StringDictionary> dictionaries = new ArrayList<>(table.size());
            try {
                for (int c = 0; c < table.size(); c++) {
                    if (sentColumn[c] >= 0) {
                        FieldVector source = rows.vector(sentColumn[c]);
                        var transfer = source.getTransferPair(allocator);
                        transfer.transfer();
                        vectors.add((FieldVector) transfer.getTo());
                        dictionaries.add(rows.dictionary(sentColumn[c]));
                    } else {
                        DataType type = table.type(c);
                        vectors.add(placeholder(table.field(c).name(), type, count));
                        boolean string = type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.CHAR;
                        dictionaries.add(string ? (type.nullable() ? StringDictionary.EMPTY : EMPTY_STRING) : null);
                    }
                }
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            return new Batch(table, vectors, dictionaries, count);
        }
    }

    /** NULLs, or zeros (code 0 of a dictionary holding '') for a NOT NULL column. */
    private FieldVector placeholder(String name, DataType type, int rows) {
        FieldVector vector = Vectors.allocate(name, type, rows, allocator);
        if (!type.nullable()) {
            for (int r = 0; r < rows; r++) {
                BitVectorHelper.setBit(((BaseFixedWidthVector) vector).getValidityBuffer(), r);
            }
        }
        vector.setValueCount(rows);
        return vector;
    }

    @Override
    public void close() {
        sent.close();
    }
}
