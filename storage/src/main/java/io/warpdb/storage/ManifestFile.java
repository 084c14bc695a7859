package io.warpdb.storage;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The durable form of a {@link Manifest}: magic {@code WARPMAN1}, the body below, CRC32C (see
 * {@link Checksums}). Big-endian; {@code str} is an i32 byte length and UTF-8 bytes.
 * <pre>
 * body     := i32 format (2) · i64 version · i64 nextId
 *             · i32 n · n × (str key · str value)                         properties
 *             · i32 n · n × table
 *             · i32 n · n × staged                                        (format 2 on)
 * table    := i64 id · str name · i32 columns · columns × column · i32 n · n × segment
 * staged   := str load · i64 tableId · i32 n · n × segment                with the table's columns
 * column   := str name · str kind (TypeKind name) · i32 precision · i32 scale · u8 nullable
 * segment  := i64 id · i32 rows · i64 deleteVectorId (0: none) · i64 deletedRows
 *             · columns × (i64 offset · i32 length · i32 crc32c · str encoding · zonemap)
 * zonemap  := i64 nullCount · u8 hasRange · [value min · value max]
 * value    := u8 (BOOLEAN) | i64 (INTEGER, BIGINT, DECIMAL unscaled, DATE days, TIMESTAMP and INTERVAL microseconds)
 *             | f64 (DOUBLE) | str
 *             | i64 high · i64 low (a DECIMAL of precision over 18, unscaled)
 * </pre>
 */
final class ManifestFile {
    private static final String MAGIC = "WARPMAN1";
    /** Written; format 1, the same without staged loads, is still read. */
    private static final int FORMAT = 2;
    private static final String OWNER = "the catalog manifest";

    private ManifestFile() {
    }

    /** The file's bytes; every segment must be a {@link FileSegment}. */
    static byte[] write(Manifest m) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeLong(m.version());
            out.writeLong(m.nextId());
            out.writeInt(m.properties().size());
            for (Map.Entry<String, String> p : m.properties().entrySet()) {
                writeString(out, p.getKey());
                writeString(out, p.getValue());
            }
            out.writeInt(m.tables().size());
            for (TableState t : m.tables().values()) {
                writeTable(out, t);
            }
            out.writeInt(m.staged().size());
            for (Map.Entry<String, StagedLoad> load : m.staged().entrySet()) {
                writeString(out, load.getKey());
                out.writeLong(load.getValue().tableId());
                Schema schema = m.table(load.getValue().tableId()).orElseThrow().schema();
                writeSegments(out, load.getValue().segments(), schema);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return Checksums.seal(MAGIC, bytes.toByteArray());
    }

    private static void writeTable(DataOutputStream out, TableState t) throws IOException {
        out.writeLong(t.id());
        writeString(out, t.name());
        Schema schema = t.schema();
        out.writeInt(schema.size());
        for (Field f : schema.fields()) {
            writeString(out, f.name());
            writeString(out, f.type().kind().name());
            out.writeInt(f.type().precision());
            out.writeInt(f.type().scale());
            out.writeBoolean(f.type().nullable());
        }
        writeSegments(out, t.segments(), schema);
    }

    private static void writeSegments(DataOutputStream out, List<SegmentRef> segments, Schema schema) throws IOException {
        out.writeInt(segments.size());
        for (SegmentRef ref : segments) {
            FileSegment s = (FileSegment) ref.segment();
            out.writeLong(s.id());
            out.writeInt(s.rowCount());
            out.writeLong(ref.deletes().fileId());
            out.writeLong(ref.deletes().cardinality());
            for (int c = 0; c < schema.size(); c++) {
                ChunkLocation chunk = s.chunks().get(c);
                out.writeLong(chunk.offset());
                out.writeInt(chunk.length());
                out.writeInt(chunk.crc32c());
                writeString(out, chunk.encoding());
                writeZoneMap(out, s.zoneMaps().get(c), schema.type(c));
            }
        }
    }

    private static void writeZoneMap(DataOutputStream out, ZoneMap z, DataType type) throws IOException {
        out.writeLong(z.nullCount());
        out.writeBoolean(z.min() != null);
        if (z.min() != null) {
            writeValue(out, z.min(), type);
            writeValue(out, z.max(), type);
        }
    }

    private static void writeValue(DataOutputStream out, Object v, DataType type) throws IOException {
        if (type.isWideDecimal()) {
            BigInteger unscaled = (BigInteger) v;
            out.writeLong(unscaled.shiftRight(64).longValue());
            out.writeLong(unscaled.longValue());
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> out.writeBoolean((Boolean) v);
            case INTEGER, BIGINT, DECIMAL, DATE, TIMESTAMP, INTERVAL -> out.writeLong((Long) v);
            case DOUBLE -> out.writeDouble((Double) v);
            case VARCHAR, CHAR -> writeString(out, (String) v);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    /**
     * Parses a manifest file, creating its segments and loading its delete vectors through
     * {@code store}; the caller owns the references of the created objects.
     *
     * @throws CorruptDataException when the file or a delete vector fails its checks; the
     *                              segments created so far are dropped unreleased: they hold
     *                              no memory yet, and releasing them would delete their files
     */
    static Manifest read(Path file, byte[] bytes, DurableStore store) {
        try {
            ByteBuffer in = Checksums.unseal(MAGIC, bytes);
            int format = in.getInt();
            if (format != 1 && format != FORMAT) {
                throw new IllegalArgumentException("format " + format + ", this build reads 1 to " + FORMAT);
            }
            long version = in.getLong();
            long nextId = in.getLong();
            Map<String, String> properties = new TreeMap<>();
            for (int n = count(in); n > 0; n--) {
                properties.put(readString(in), readString(in));
            }
            Map<String, TableState> tables = new LinkedHashMap<>();
            for (int n = count(in); n > 0; n--) {
                TableState t = readTable(in, store);
                tables.put(Manifest.key(t.name()), t);
            }
            Map<String, StagedLoad> staged = new TreeMap<>();
            for (int n = format == 1 ? 0 : count(in); n > 0; n--) {
                String load = readString(in);
                long tableId = in.getLong();
                TableState table = tables.values().stream().filter(t -> t.id() == tableId).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("load " + load + " is staged for table id " + tableId
                                + ", which the manifest does not hold"));
                staged.put(load, new StagedLoad(tableId, readSegments(in, store, table.name(), table.schema())));
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the last table");
            }
            return new Manifest(version, nextId, properties, tables, staged);
        } catch (RuntimeException e) {
            throw e instanceof CorruptDataException c ? c : new CorruptDataException(file, OWNER, describe(e), e);
        }
    }

    private static TableState readTable(ByteBuffer in, DurableStore store) {
        long id = in.getLong();
        String name = readString(in);
        List<Field> fields = new ArrayList<>();
        for (int n = count(in); n > 0; n--) {
            String column = readString(in);
            TypeKind kind = TypeKind.valueOf(readString(in));
            int precision = in.getInt();
            int scale = in.getInt();
            fields.add(new Field(column, new DataType(kind, precision, scale, in.get() != 0)));
        }
        Schema schema = new Schema(fields);
        return new TableState(id, name, schema, readSegments(in, store, name, schema));
    }

    private static List<SegmentRef> readSegments(ByteBuffer in, DurableStore store, String name, Schema schema) {
        List<Field> fields = schema.fields();
        List<DataType> types = fields.stream().map(Field::type).toList();
        List<SegmentRef> segments = new ArrayList<>();
        for (int n = count(in); n > 0; n--) {
            long segmentId = in.getLong();
            int rows = in.getInt();
            long deleteVectorId = in.getLong();
            long deletedRows = in.getLong();
            List<ChunkLocation> chunks = new ArrayList<>();
            List<ZoneMap> zoneMaps = new ArrayList<>();
            for (Field f : fields) {
                chunks.add(new ChunkLocation(in.getLong(), in.getInt(), in.getInt(), readString(in)));
                zoneMaps.add(readZoneMap(in, f.type()));
            }
            DeleteVector deletes = deleteVectorId == 0 ? DeleteVector.NONE
                    : store.loadDeleteVector(deleteVectorId, name, deletedRows);
            if (deletes == DeleteVector.NONE) {
                deletes.retain(); // like the segment, each created ref holds a reference for the caller
            }
            segments.add(new SegmentRef(new FileSegment(store, segmentId, name, rows, zoneMaps, types, chunks), deletes));
        }
        return segments;
    }

    private static ZoneMap readZoneMap(ByteBuffer in, DataType type) {
        long nullCount = in.getLong();
        if (in.get() == 0) {
            return new ZoneMap(nullCount, null, null);
        }
        return new ZoneMap(nullCount, readValue(in, type), readValue(in, type));
    }

    private static Object readValue(ByteBuffer in, DataType type) {
        if (type.isWideDecimal()) {
            long high = in.getLong();
            return Int128.toBigInteger(high, in.getLong());
        }
        return switch (type.kind()) {
            case BOOLEAN -> in.get() != 0;
            case INTEGER, BIGINT, DECIMAL, DATE, TIMESTAMP, INTERVAL -> in.getLong();
            case DOUBLE -> in.getDouble();
            case VARCHAR, CHAR -> readString(in);
        };
    }

    private static String readString(ByteBuffer in) {
        byte[] utf8 = new byte[count(in)];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A length or count, checked against what is left so a bad one cannot allocate wildly. */
    private static int count(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("count " + n + " at byte " + (in.position() - Integer.BYTES) + " is impossible");
        }
        return n;
    }

    private static String describe(RuntimeException e) {
        return e instanceof IllegalArgumentException ? e.getMessage() : "unreadable (" + e + ")";
    }
}
