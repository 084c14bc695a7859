package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.Batch;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.dataset.file.DatasetFileWriter;
import org.apache.arrow.dataset.file.FileFormat;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arrow IPC (file and stream) and Parquet round trips: written with Arrow, loaded with COPY, read back with SQL. */
class ArrowFormatsTest {
    @TempDir
    Path dir;
    private Database db;
    private Session session;
    private BufferAllocator allocator;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("arrow");
        session = db.newSession();
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown() {
        allocator.close();
        session.close();
        db.close();
    }

    /** Three rows: (1, 'one', 1.25, 1970-01-02), (2, NULL, NULL, NULL), (3, 'three', -3.50, 2000-01-01). */
    private VectorSchemaRoot rows() {
        BigIntVector id = new BigIntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        DecimalVector price = new DecimalVector("price", allocator, 10, 2);
        DateDayVector day = new DateDayVector("day", allocator);
        id.allocateNew(3);
        name.allocateNew(3);
        price.allocateNew(3);
        day.allocateNew(3);
        id.set(0, 1);
        id.set(1, 2);
        id.set(2, 3);
        name.set(0, "one".getBytes(StandardCharsets.UTF_8));
        name.setNull(1);
        name.set(2, "three".getBytes(StandardCharsets.UTF_8));
        price.set(0, new BigDecimal("1.25"));
        price.setNull(1);
        price.set(2, new BigDecimal("-3.50"));
        day.set(0, 1);
        day.setNull(1);
        day.set(2, 10957);
        VectorSchemaRoot root = VectorSchemaRoot.of(id, name, price, day);
        root.setRowCount(3);
        return root;
    }

    private List<List<Object>> query(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.rows();
        }
    }

    private long update(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.updateCount();
        }
    }

    private static final List<List<Object>> EXPECTED = List.of(
            Arrays.asList(1L, "one", new BigDecimal("1.25"), java.sql.Date.valueOf("1970-01-02")),
            Arrays.asList(2L, null, null, null),
            Arrays.asList(3L, "three", new BigDecimal("-3.50"), java.sql.Date.valueOf("2000-01-01")));

    private byte[] streamBytes() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = rows(); ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(bytes))) {
            writer.writeBatch();
        }
        return bytes.toByteArray();
    }

    @Test
    void arrowIpcFileAndStreamIntoACreatedTable() throws Exception {
        Path file = dir.resolve("rows.arrow");
        try (VectorSchemaRoot root = rows(); FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, out)) {
            writer.writeBatch();
        }
        assertEquals(3, update("COPY a FROM '" + file + "' (CREATE true)"));
        assertEquals("[id BIGINT, name VARCHAR, price DECIMAL(10,2), day DATE]",
                db.catalog().table("a").orElseThrow().schema().fields().toString());
        assertEquals(EXPECTED, query("select * from a order by id"));
        Path stream = Files.write(dir.resolve("rows.arrows"), streamBytes());
        assertEquals(3, update("COPY a FROM '" + stream + "'"));
        assertEquals(List.of(Arrays.asList(6L)), query("select count(*) from a"));
    }

    @Test
    void narrowIntegersFloatsAndTimestampsKeepTheirTypes() throws Exception {
        SmallIntVector s = new SmallIntVector("s", allocator);
        TinyIntVector t = new TinyIntVector("t", allocator);
        Float4Vector r = new Float4Vector("r", allocator);
        TimeStampMicroVector ts = new TimeStampMicroVector("ts", allocator);
        s.setSafe(0, Short.MIN_VALUE);
        t.setSafe(0, Byte.MAX_VALUE);
        r.setSafe(0, 0.1f);
        ts.setSafe(0, -1);
        s.setNull(1);
        t.setNull(1);
        r.setNull(1);
        ts.setNull(1);
        Path file = dir.resolve("narrow.arrow");
        try (VectorSchemaRoot root = VectorSchemaRoot.of(s, t, r, ts)) {
            root.setRowCount(2);
            try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    ArrowFileWriter writer = new ArrowFileWriter(root, null, out)) {
                writer.writeBatch();
            }
        }
        assertEquals(2, update("COPY narrow FROM '" + file + "' (CREATE true)"));
        assertEquals("[s SMALLINT, t TINYINT, r REAL, ts TIMESTAMP]", db.catalog().table("narrow").orElseThrow().schema().fields().toString());
        assertEquals(List.of(Arrays.asList((short) -32768, (byte) 127, 0.1f, "1969-12-31 23:59:59.999999"), Arrays.asList(null, null, null, null)),
                query("select s, t, r, cast(ts as varchar) from narrow order by s nulls last"));
    }

    @Test
    void parquetThroughArrowDataset() throws Exception {
        Path out = dir.resolve("parquet");
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(streamBytes()), allocator)) {
            DatasetFileWriter.write(allocator, reader, FileFormat.PARQUET, out.toUri().toString());
        }
        Path file;
        try (var files = Files.list(out)) {
            file = files.findFirst().orElseThrow(); // Arrow Dataset names it data_0, without an extension
        }
        update("create table p (id integer, name varchar(10), price decimal(12,2), day date)");
        assertEquals(3, update("COPY p FROM '" + file + "' (FORMAT parquet)"));
        assertEquals(EXPECTED.stream().map(r -> {
            List<Object> row = new ArrayList<>(r);
            row.set(0, ((Long) r.get(0)).intValue());
            return row;
        }).toList(), query("select * from p order by id"));
    }
}
