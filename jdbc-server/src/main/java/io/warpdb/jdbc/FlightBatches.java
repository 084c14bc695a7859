package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * A result's Flight stream: Arrow record batches made column by column from the executors'
 * batches. Columns whose stored form is already the standard Arrow one (BOOLEAN, INTEGER, BIGINT,
 * DOUBLE, DATE, a wide DECIMAL's decimal128) move over without a copy, and so do TIMESTAMP's
 * microseconds (Arrow's zone-less microsecond timestamps have BIGINT's layout); DECIMAL's scaled
 * 64-bit integers widen into Arrow's 128-bit decimals; INTERVAL's microseconds become Arrow's
 * microsecond durations.
 *
 * <p>String columns go one of two ways ({@link FlightStrings}, {@link #dictionaryColumns}). As Arrow dictionaries, the
 * executors' int32 codes move over without a copy and their dictionary is sent before the
 * first batch that uses it: once per stream where the batches share one, again (an IPC
 * dictionary replacement, {@link FlightDictionaryReplacement}) where a batch brings another,
 * as scans do at each segment (a segment's dictionary is its own). As UTF-8, the codes are
 * decoded per row, each dictionary entry encoded once.
 */
final class FlightBatches implements AutoCloseable {
    private final Schema schema;
    private final boolean dictionaries;
    private final BufferAllocator allocator;
    /** Made with the first batch, whose dictionaries decide which columns travel as dictionaries. */
    private VectorSchemaRoot root;
    /** Per column: whether it travels as an Arrow dictionary (set with the root). */
    private boolean[] dictionaryColumns;
    /** Per dictionary column: the vector holding the dictionary the client has. */
    private final DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
    /** Per string column: the dictionary the client has (dictionary columns) or whose entries {@link #utf8} caches. */
    private final StringDictionary[] current;
    private final byte[][][] utf8;
    /** Per dictionary column: whether its dictionary changed since the client got it. */
    private final boolean[] replaced;
    private boolean started;

    /** A stream of a result with these columns; strings as dictionaries where {@code dictionaries} and {@link #dictionaryColumns} allow. */
    FlightBatches(Schema schema, boolean dictionaries, BufferAllocator allocator) {
        this.schema = schema;
        this.dictionaries = dictionaries;
        this.allocator = allocator;
        this.current = new StringDictionary[schema.size()];
        this.utf8 = new byte[schema.size()][][];
        this.replaced = new boolean[schema.size()];
    }

    /**
     * Per column: whether it travels as an Arrow dictionary. A string column does when the client
     * takes dictionaries and its dictionary in the result's first batch ({@code first}; null when
     * not known) is no larger than the batch: where values barely repeat (comments, keys), a
     * segment's dictionary holds many more entries than a batch of the segment uses, and sending
     * it would cost more than the batch's values.
     */
    static boolean[] dictionaryColumns(Schema schema, Batch first, boolean dictionaries) {
        boolean[] columns = new boolean[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            columns[c] = dictionaries && schema.type(c).kind().isString()
                    && (first == null || first.dictionary(c).size() <= Math.max(1, first.rowCount()));
        }
        return columns;
    }

    /** The Arrow schema a result with these columns is sent with (names as labelled, duplicates kept). */
    static org.apache.arrow.vector.types.pojo.Schema arrowSchema(Schema schema, boolean[] dictionaryColumns) {
        List<Field> fields = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            DataType t = schema.type(c);
            DictionaryEncoding encoding = dictionaryColumns[c] ? encoding(c) : null;
            fields.add(new Field(schema.field(c).name(), new FieldType(t.nullable(), wireType(t), encoding), null));
        }
        return new org.apache.arrow.vector.types.pojo.Schema(fields);
    }

    /** The Arrow schema of a result with these columns, strings as UTF-8. */
    static org.apache.arrow.vector.types.pojo.Schema arrowSchema(Schema schema) {
        return arrowSchema(schema, new boolean[schema.size()]);
    }

    /** Makes the root, its dictionary columns as {@link #dictionaryColumns} decide for the first batch (null: none). */
    private void createRoot(Batch first) {
        dictionaryColumns = dictionaryColumns(schema, first, dictionaries);
        List<Field> fields = new ArrayList<>(schema.size());
        for (int c = 0; c < schema.size(); c++) {
            DataType t = schema.type(c);
            String name = schema.field(c).name();
            if (dictionaryColumns[c]) {
                fields.add(new Field(name, new FieldType(t.nullable(), encoding(c).getIndexType(), encoding(c)), null));
                provider.put(new Dictionary(new VarCharVector(name, allocator), encoding(c)));
            } else {
                fields.add(new Field(name, new FieldType(t.nullable(), wireType(t), null), null));
            }
        }
        root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(fields), allocator);
    }

    /** A string column's dictionary: its id is the column's position, its codes int32 as the executors'. */
    private static DictionaryEncoding encoding(int column) {
        return new DictionaryEncoding(column, false, new ArrowType.Int(32, true));
    }

    /** The Arrow type a column of {@code type} travels as (a string column's dictionary values, when it has one). */
    static ArrowType wireType(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> new ArrowType.Decimal(type.precision(), type.scale(), 128);
            case VARCHAR, CHAR -> ArrowType.Utf8.INSTANCE;
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            case INTERVAL -> new ArrowType.Duration(TimeUnit.MICROSECOND);
            default -> type.arrowType();
        };
    }

    /**
     * Makes the root hold {@code batch}'s rows, which closes the batch (the vectors that move over
     * leave it); false at the end of the result ({@code batch} null). Dictionaries the client
     * does not have yet go before the rows, with the stream's schema for the first batch.
     * Runs on the session's turn: afterwards the root holds nothing of the result's memory, so
     * that a cancel or close between turns may close the result.
     */
    boolean load(Batch batch) {
        if (batch == null) {
            return false;
        }
        try (batch) {
            if (root == null) {
                createRoot(batch);
            }
            int rows = batch.rowCount();
            for (int c = 0; c < schema.size(); c++) {
                FieldVector from = batch.vector(c);
                FieldVector to = root.getVector(c);
                switch (schema.type(c).kind()) {
                    case DECIMAL -> {
                        if (schema.type(c).isWideDecimal()) {
                            from.makeTransferPair(to).transfer(); // already Arrow's decimal128
                        } else {
                            widen((BigIntVector) from, (DecimalVector) to, rows);
                        }
                    }
                    case INTERVAL -> durations((BigIntVector) from, (DurationVector) to, rows);
                    case TIMESTAMP -> ((TimeStampMicroVector) to).loadFieldBuffers(new ArrowFieldNode(rows, from.getNullCount()),
                            List.of(from.getValidityBuffer(), from.getDataBuffer()));
                    case VARCHAR, CHAR -> {
                        if (dictionaryColumns[c]) {
                            if (batch.dictionary(c) != current[c]) {
                                setDictionary(c, batch.dictionary(c));
                                replaced[c] = started;
                            }
                            from.makeTransferPair(to).transfer();
                        } else {
                            decode((IntVector) from, batch.dictionary(c), c, (VarCharVector) to, rows);
                        }
                    }
                    default -> from.makeTransferPair(to).transfer();
                }
            }
            root.setRowCount(rows);
        }
        return true;
    }

    /** Rows the root holds. */
    int rowCount() {
        return root.getRowCount();
    }

    /** Starts the stream: its schema and the dictionaries of the batch loaded first (empty ones where none was). */
    void start(ServerStreamListener listener) {
        if (root == null) {
            createRoot(null);
        }
        for (int c = 0; c < schema.size(); c++) {
            if (dictionaryColumns[c] && current[c] == null) {
                setDictionary(c, StringDictionary.EMPTY);
            }
        }
        listener.start(root, provider);
        started = true;
    }

    /** Sends the rows the root holds, after the dictionaries that replace those the client has. */
    void send(ServerStreamListener listener) {
        for (int c = 0; c < schema.size(); c++) {
            if (replaced[c]) {
                FlightDictionaryReplacement.send(listener, provider.lookup(c));
                replaced[c] = false;
            }
        }
        listener.putNext();
    }

    /** Sends a batch without rows (for a result that has none). */
    void sendEmpty(ServerStreamListener listener) {
        root.setRowCount(0);
        listener.putNext();
    }

    /** Fills column {@code c}'s dictionary vector with {@code dictionary}'s entries. */
    private void setDictionary(int c, StringDictionary dictionary) {
        current[c] = dictionary;
        VarCharVector entries = (VarCharVector) provider.lookup(c).getVector();
        entries.reset();
        for (int i = 0; i < dictionary.size(); i++) {
            entries.setSafe(i, dictionary.get(i).getBytes(StandardCharsets.UTF_8));
        }
        entries.setValueCount(dictionary.size());
    }

    /** An INTERVAL's microseconds as Arrow's microsecond durations. */
    private static void durations(BigIntVector from, DurationVector to, int rows) {
        to.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            if (from.isNull(i)) {
                to.setNull(i);
            } else {
                to.set(i, from.get(i));
            }
        }
    }

    /** Scaled 64-bit integers as 128-bit decimals: the low word as is, the high word its sign; validity copied whole. */
    private static void widen(BigIntVector from, DecimalVector to, int rows) {
        to.allocateNew(rows);
        to.getValidityBuffer().setBytes(0, from.getValidityBuffer(), 0, BitVectorHelper.getValidityBufferSize(rows));
        ArrowBuf in = from.getDataBuffer();
        ArrowBuf out = to.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            long v = in.getLong((long) i * BigIntVector.TYPE_WIDTH);
            out.setLong((long) i * DecimalVector.TYPE_WIDTH, v);
            out.setLong((long) i * DecimalVector.TYPE_WIDTH + 8, v >> 63);
        }
        to.setValueCount(rows);
    }

    private void decode(IntVector codes, StringDictionary dictionary, int column, VarCharVector to, int rows) {
        if (current[column] != dictionary) {
            current[column] = dictionary;
            utf8[column] = new byte[dictionary.size()][];
        }
        byte[][] bytes = utf8[column];
        to.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            if (codes.isNull(i)) {
                to.setNull(i);
                continue;
            }
            int code = codes.get(i);
            byte[] value = bytes[code];
            if (value == null) {
                value = dictionary.get(code).getBytes(StandardCharsets.UTF_8);
                bytes[code] = value;
            }
            to.setSafe(i, value);
        }
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
        for (long id : provider.getDictionaryIds()) {
            provider.lookup(id).getVector().close();
        }
    }
}
