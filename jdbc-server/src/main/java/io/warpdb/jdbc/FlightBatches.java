package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.DurationVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The Arrow record batches Flight SQL sends, made column by column from the executors' batches.
 * Columns whose stored form is already the standard Arrow one (BOOLEAN, INTEGER, BIGINT, DOUBLE,
 * DATE, a wide DECIMAL's decimal128) move over without a copy; DECIMAL's scaled 64-bit integers widen into Arrow decimals,
 * TIMESTAMP's microseconds become Arrow's zone-less microsecond timestamps, INTERVAL's microsecond durations, and
 * dictionary codes become plain UTF-8 strings, because Arrow clients (the Flight SQL JDBC
 * driver among them) read VarChar everywhere while a dictionary per batch would resend it with
 * every batch. Each dictionary entry is encoded to UTF-8 once per stream.
 */
final class FlightBatches implements AutoCloseable {
    private final Schema schema;
    private final VectorSchemaRoot root;
    /** Per column: the dictionary whose entries {@link #utf8} caches, and the cache. */
    private final StringDictionary[] cachedDictionary;
    private final byte[][][] utf8;

    FlightBatches(Schema schema, BufferAllocator allocator) {
        this.schema = schema;
        this.root = VectorSchemaRoot.create(arrowSchema(schema), allocator);
        this.cachedDictionary = new StringDictionary[schema.size()];
        this.utf8 = new byte[schema.size()][][];
    }

    /** The Arrow schema of a result with these columns (names as labelled, duplicates kept). */
    static org.apache.arrow.vector.types.pojo.Schema arrowSchema(Schema schema) {
        List<Field> fields = new ArrayList<>(schema.size());
        for (int i = 0; i < schema.size(); i++) {
            DataType t = schema.type(i);
            fields.add(new Field(schema.field(i).name(), new FieldType(t.nullable(), wireType(t), null), null));
        }
        return new org.apache.arrow.vector.types.pojo.Schema(fields);
    }

    /** The Arrow type a column of {@code type} travels as. */
    static ArrowType wireType(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> new ArrowType.Decimal(type.precision(), type.scale(), 128);
            case VARCHAR, CHAR -> ArrowType.Utf8.INSTANCE;
            case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            case INTERVAL -> new ArrowType.Duration(TimeUnit.MICROSECOND);
            default -> type.arrowType();
        };
    }

    /** The root that {@link #load} fills and that the stream sends. */
    VectorSchemaRoot root() {
        return root;
    }

    /** Makes the root hold {@code batch}'s rows; the batch gives up the vectors that move over and is still the caller's to close. */
    void load(Batch batch) {
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
                case VARCHAR, CHAR -> decode((IntVector) from, batch.dictionary(c), c, (VarCharVector) to, rows);
                case TIMESTAMP -> timestamps((BigIntVector) from, (TimeStampMicroVector) to, rows);
                case INTERVAL -> durations((BigIntVector) from, (DurationVector) to, rows);
                default -> from.makeTransferPair(to).transfer();
            }
        }
        root.setRowCount(rows);
    }

    /** Microseconds since 1970 as Arrow's zone-less microsecond timestamps (the same values, another vector type). */
    private static void timestamps(BigIntVector from, TimeStampMicroVector to, int rows) {
        to.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            if (from.isNull(i)) {
                to.setNull(i);
            } else {
                to.set(i, from.get(i));
            }
        }
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

    private static void widen(BigIntVector from, DecimalVector to, int rows) {
        to.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            if (from.isNull(i)) {
                to.setNull(i);
            } else {
                to.set(i, from.get(i));
            }
        }
    }

    private void decode(IntVector codes, StringDictionary dictionary, int column, VarCharVector to, int rows) {
        if (cachedDictionary[column] != dictionary) {
            cachedDictionary[column] = dictionary;
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
        root.close();
    }
}
