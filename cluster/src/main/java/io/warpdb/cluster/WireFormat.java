package io.warpdb.cluster;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Batches on the wire between nodes: plain Arrow record batches that any Flight client reads.
 * Strings travel as UTF-8 values (a batch's dictionary is its own, so codes mean nothing
 * elsewhere); other columns as stored (DECIMAL as its unscaled 64-bit integer). Each field's
 * metadata keeps its WarpDB type, so the receiver rebuilds the schema exactly.
 */
final class WireFormat {
    private static final String TYPE_KEY = "warpdb.type";

    private WireFormat() {
    }

    static org.apache.arrow.vector.types.pojo.Schema arrowSchema(Schema schema) {
        List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            DataType t = f.type();
            ArrowType wire = isString(t) ? ArrowType.Utf8.INSTANCE : t.arrowType();
            String typeText = t.kind() + "," + t.precision() + "," + t.scale() + "," + t.nullable();
            fields.add(new org.apache.arrow.vector.types.pojo.Field(f.name(), new FieldType(true, wire, null,
                    Map.of(TYPE_KEY, typeText)), null));
        }
        return new org.apache.arrow.vector.types.pojo.Schema(fields);
    }

    static Schema schema(org.apache.arrow.vector.types.pojo.Schema arrow) {
        List<Field> fields = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field f : arrow.getFields()) {
            String[] t = f.getMetadata().get(TYPE_KEY).split(",");
            fields.add(new Field(f.getName(), new DataType(TypeKind.valueOf(t[0]), Integer.parseInt(t[1]), Integer.parseInt(t[2]),
                    Boolean.parseBoolean(t[3]))));
        }
        return new Schema(fields);
    }

    /** Puts {@code batch}'s rows into {@code root} (made from {@link #arrowSchema}), sharing its buffers where it can. */
    static void fill(VectorSchemaRoot root, Batch batch) {
        int rows = batch.rowCount();
        for (int c = 0; c < batch.columnCount(); c++) {
            FieldVector target = root.getVector(c);
            if (isString(batch.schema().type(c))) {
                fillStrings((VarCharVector) target, (IntVector) batch.vector(c), batch.dictionary(c), rows);
            } else {
                batch.vector(c).makeTransferPair(target).splitAndTransfer(0, rows);
            }
        }
        root.setRowCount(rows);
    }

    /** The rows in {@code root} as a batch of {@code schema} allocated to {@code allocator}; the caller owns it. */
    static Batch batch(VectorSchemaRoot root, Schema schema, BufferAllocator allocator) {
        int rows = root.getRowCount();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                FieldVector source = root.getVector(c);
                if (isString(schema.type(c))) {
                    IntVector codes = (IntVector) Vectors.allocate(schema.field(c).name(), schema.type(c), rows, allocator);
                    vectors.add(codes);
                    dictionaries.add(readStrings((VarCharVector) source, codes, rows));
                } else {
                    var transfer = source.getTransferPair(allocator);
                    transfer.transfer();
                    vectors.add((FieldVector) transfer.getTo());
                    dictionaries.add(null);
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, dictionaries, rows);
    }

    /**
     * Each row's value as UTF-8 bytes: copied from a dictionary held as UTF-8 (a stored segment's),
     * else encoded once per entry the rows use rather than once per row.
     */
    private static void fillStrings(VarCharVector strings, IntVector codes, StringDictionary dictionary, int rows) {
        strings.allocateNew(rows);
        Utf8Strings utf8 = dictionary.utf8();
        Map<Integer, byte[]> encoded = utf8 == null ? new HashMap<>() : null;
        for (int r = 0; r < rows; r++) {
            if (codes.isNull(r)) {
                strings.setNull(r);
            } else if (utf8 != null) {
                int code = codes.get(r);
                strings.setSafe(r, utf8.bytes(), utf8.offset(code), utf8.length(code));
            } else {
                strings.setSafe(r, encoded.computeIfAbsent(codes.get(r), code -> dictionary.get(code).getBytes(StandardCharsets.UTF_8)));
            }
        }
        strings.setValueCount(rows);
    }

    /**
     * The rows' values as codes into a dictionary of their distinct values, returned, kept as UTF-8
     * bytes: no String per row (a coordinator merging millions of groups with strings spent seconds
     * making them).
     */
    private static StringDictionary readStrings(VarCharVector strings, IntVector codes, int rows) {
        int end = rows == 0 ? 0 : strings.getOffsetBuffer().getInt((long) rows * VarCharVector.OFFSET_WIDTH);
        byte[] bytes = new byte[end];
        strings.getDataBuffer().getBytes(0, bytes, 0, end);
        Utf8Dictionary dictionary = new Utf8Dictionary(rows, end);
        for (int r = 0; r < rows; r++) {
            if (strings.isNull(r)) {
                codes.setNull(r);
            } else {
                codes.setSafe(r, dictionary.add(bytes, strings.getStartOffset(r), strings.getEndOffset(r)));
            }
        }
        codes.setValueCount(rows);
        return StringDictionary.ofUtf8(dictionary.build(), true);
    }

    private static boolean isString(DataType type) {
        return type.kind() == TypeKind.VARCHAR || type.kind() == TypeKind.CHAR;
    }
}
