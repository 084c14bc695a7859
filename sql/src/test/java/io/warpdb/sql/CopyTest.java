package io.warpdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.WarpException;
import io.warpdb.ingest.LoadOptions;
import io.warpdb.ingest.Loader;
import io.warpdb.ingest.SchemaInference;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Date;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** COPY and the loader below it: every format, every kind of bad input, and that a failed load changes nothing. */
class CopyTest {
    @TempDir
    Path dir;
    private Database db;
    private Session session;

    @BeforeEach
    void setUp() {
        db = Database.inMemory("load");
        session = db.newSession();
        update("create table t (i integer, b bigint, d decimal(10,2), f double, day date, s varchar(20), c char(3), ok boolean)");
        update("insert into t values (0, 0, 0, 0, date '2000-01-01', 'before', 'x', false)");
    }

    @AfterEach
    void tearDown() {
        session.close();
        db.close(); // fails on leaked Arrow memory
    }

    private long update(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.updateCount();
        }
    }

    private List<List<Object>> query(String sql) {
        try (StatementResult r = session.execute(sql, List.of())) {
            return r.rows();
        }
    }

    private long count(String table) {
        return (Long) query("select count(*) from " + table).get(0).get(0);
    }

    private Path write(String name, String text) throws IOException {
        return Files.write(dir.resolve(name), text.getBytes(StandardCharsets.UTF_8));
    }

    private String sqlPath(Path file) {
        return file.toString().replace("'", "''");
    }

    private static final String HEADER = "i,b,d,f,day,s,c,ok\n";

    @Test
    void loadsEveryTypeNullsAndQuotedFields() throws IOException {
        Path file = write("t.csv", HEADER
                + "1,10000000000,12.34,1.5,1996-02-29,plain,ab,true\n"
                + "-2,-3,-0.5,-2e3,1970-01-01,\"with, comma\",\"q\"\"\",f\n"
                + ",,,,,,,\n"
                + "4,4,4,4,2024-12-31,\"two\nlines\",\"\",TRUE\r\n");
        assertEquals(4, update("COPY t FROM '" + sqlPath(file) + "' (FORMAT csv, HEADER true)"));
        assertEquals(List.of(
                row(-2, -3L, new BigDecimal("-0.50"), -2000.0, Date.valueOf("1970-01-01"), "with, comma", "q\"", false),
                row(1, 10000000000L, new BigDecimal("12.34"), 1.5, Date.valueOf("1996-02-29"), "plain", "ab", true),
                row(4, 4L, new BigDecimal("4.00"), 4.0, Date.valueOf("2024-12-31"), "two\nlines", "", true),
                row(null, null, null, null, null, null, null, null)),
                query("select * from t where i is null or i <> 0 order by i nulls last"));
    }

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    @Test
    void tblDialectGzipAndNoHeader() throws IOException {
        update("create table p (k integer, name varchar(10))");
        Path file = dir.resolve("p.tbl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write("1|one|\n2|two|\n3||\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(3, update("COPY p FROM '" + sqlPath(file) + "'"));
        assertEquals(List.of(row(1, "one"), row(2, "two"), row(3, null)), query("select * from p order by k"));
        // inferred: the field after the trailing delimiter is no column
        assertEquals(3, update("COPY q FROM '" + sqlPath(file) + "' (CREATE true)"));
        assertEquals("[c1 INTEGER, c2 VARCHAR]", db.catalog().table("q").orElseThrow().schema().fields().toString());
    }

    @Test
    void customDelimiterQuoteEscapeAndNullString() throws IOException {
        update("create table p (k integer, name varchar(10))");
        Path file = write("p.txt", "1;'it\\'s'\n2;NA\n3;''\n");
        assertEquals(3, update("COPY p FROM '" + sqlPath(file) + "' WITH (HEADER false, DELIMITER ';', QUOTE '''', "
                + "ESCAPE '\\', NULL 'NA')"));
        assertEquals(List.of(row(1, "it's"), row(2, null), row(3, "")), query("select * from p order by k"));
    }

    @Test
    void manyChunksKeepFileOrderAndLineNumbers() throws IOException {
        update("create table n (k integer, s varchar)");
        StringBuilder text = new StringBuilder();
        int rows = 300_000; // about 9 MB: several chunks
        for (int i = 0; i < rows; i++) {
            text.append(i).append(",\"row ").append(i).append("\nline two\"\n");
        }
        text.append("oops,x\n");
        Path file = write("n.csv", text.toString());
        WarpException e = assertThrows(WarpException.class, () -> update("COPY n FROM '" + sqlPath(file) + "' (HEADER false)"));
        assertEquals(file + ":" + (2 * rows + 1) + ":1: expected an INTEGER, found 'oops' (column k)", e.getMessage());
        assertEquals("22P02", e.sqlState());
        assertEquals(0, count("n"));
        Files.writeString(file, text.substring(0, text.length() - "oops,x\n".length()));
        assertEquals(rows, update("COPY n FROM '" + sqlPath(file) + "' (HEADER false)"));
        assertEquals(List.of(row(0, rows - 1, (long) rows * (rows - 1) / 2)), query("select min(k), max(k), sum(cast(k as bigint)) from n"));
        assertEquals(List.of(row("row 123456\nline two")), query("select s from n where k = 123456"));
    }

    /** Each bad input fails with its location and SQLSTATE, and the table keeps exactly its one row. */
    private void assertRejected(String csv, String state, String message) throws IOException {
        Path file = write("bad.csv", HEADER + csv);
        WarpException e = assertThrows(WarpException.class, () -> update("COPY t FROM '" + sqlPath(file) + "'"));
        assertEquals(file + ":" + message, e.getMessage());
        assertEquals(state, e.sqlState());
        assertEquals(1, count("t"));
    }

    @Test
    void badValuesNameFileLineColumnAndExpectation() throws IOException {
        String good = "1,1,1,1,1996-01-01,a,b,true\n";
        assertRejected(good + "1,1,1,1,1996-13-45,a,b,true\n", "22007",
                "3:9: expected a DATE (yyyy-mm-dd), found '1996-13-45' (column day)");
        assertRejected(good + "x1,1,1,1,1996-01-01,a,b,true\n", "22P02", "3:1: expected an INTEGER, found 'x1' (column i)");
        assertRejected("3000000000,1,1,1,1996-01-01,a,b,true\n", "22003",
                "2:1: expected an INTEGER (-2147483648..2147483647), found '3000000000' (column i)");
        assertRejected("1,1,1.2.3,1,1996-01-01,a,b,true\n", "22P02", "2:5: expected a DECIMAL(10,2), found '1.2.3' (column d)");
        assertRejected("1,1,1,abc,1996-01-01,a,b,true\n", "22P02", "2:7: expected a DOUBLE, found 'abc' (column f)");
        assertRejected("1,1,1,1,1996-01-01,a,b,maybe\n", "22P02", "2:24: expected a BOOLEAN (true or false), found 'maybe' (column ok)");
        assertRejected("1,1,1,1,1996-01-01,a,long,true\n", "22001", "2:22: expected a CHAR(3) of at most 3 characters, found 'long' (column c)");
    }

    @Test
    void malformedRecordsNameWhereTheyGoWrong() throws IOException {
        assertRejected("1,1,1,1,1996-01-01,a,b\n", "22P04", "2:23: expected 8 fields, found 7");
        assertRejected("1,1,1,1,1996-01-01,a,b,true,9\n", "22P04", "2:29: expected 8 fields, found more");
        assertRejected("1,1,1,1,1996-01-01,\"open,b,true\n", "22P04",
                "2:20: expected a closing quote for the quoted field that starts here, found the end of the file");
        assertRejected("1,1,1,1,1996-01-01,\"a\"x,b,true\n", "22P04",
                "2:23: expected a delimiter or a line end after the closing quote, found 'x'");
    }

    @Test
    void invalidUtf8IsRejected() throws IOException {
        byte[] start = (HEADER + "1,1,1,1,1996-01-01,").getBytes(StandardCharsets.UTF_8);
        byte[] end = ",b,true\n".getBytes(StandardCharsets.UTF_8);
        byte[] text = Arrays.copyOf(start, start.length + 4 + end.length);
        // 'a', then a UTF-8 lead byte followed by a space, which no UTF-8 text has
        System.arraycopy(new byte[] {'a', (byte) 0xC3, ' ', 'b'}, 0, text, start.length, 4);
        System.arraycopy(end, 0, text, start.length + 4, end.length);
        Path file = Files.write(dir.resolve("bad.csv"), text);
        WarpException e = assertThrows(WarpException.class, () -> update("COPY t FROM '" + sqlPath(file) + "'"));
        assertEquals("22021", e.sqlState());
        assertTrue(e.getMessage().startsWith(file + ":2:20: expected valid UTF-8 text, found "), e.getMessage());
        assertEquals(1, count("t"));
    }

    @Test
    void missingFileUnknownTableAndPermissionDenied() throws IOException {
        WarpException missing = assertThrows(WarpException.class, () -> update("COPY t FROM '" + dir.resolve("none.csv") + "'"));
        assertEquals("58P01", missing.sqlState());
        assertEquals("could not open file " + dir.resolve("none.csv") + ": no such file", missing.getMessage());
        Path file = write("ok.csv", HEADER);
        WarpException unknown = assertThrows(WarpException.class, () -> update("COPY nope FROM '" + sqlPath(file) + "'"));
        assertEquals("42P01", unknown.sqlState());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("-w-------"));
        assumeFalse(Files.isReadable(file), "running as root: every file is readable");
        WarpException denied = assertThrows(WarpException.class, () -> update("COPY t FROM '" + sqlPath(file) + "'"));
        assertEquals("42501", denied.sqlState());
        assertEquals(1, count("t"));
    }

    @Test
    void maxErrorsWritesRejectedRowsAndLoadsTheRest() throws IOException {
        Path file = write("some.csv", HEADER + "1,1,1,1,1996-01-01,a,b,true\nbad,1,1,1,1996-01-01,a,b,true\n"
                + "3,1,1,1,1996-01-01,\"multi\nline\",b,nope\n4,1,1,1,1996-01-01,a,b,true\n");
        Path rejects = dir.resolve("rejects.csv");
        WarpException tooMany = assertThrows(WarpException.class, () -> update("COPY t FROM '" + sqlPath(file)
                + "' (MAX_ERRORS 1, REJECT_FILE '" + sqlPath(rejects) + "')"));
        assertEquals(file + ":5:9: expected a BOOLEAN (true or false), found 'nope' (column ok) (2 rows rejected, more than the 1 allowed)",
                tooMany.getMessage());
        assertEquals(1, count("t"));
        Loader.Result result = new Loader(db.catalog(), db.allocator(), LoadOptions.of(java.util.Map.of("MAX_ERRORS", "2")),
                Loader.Progress.NONE).load("t", List.of(file));
        assertEquals(new Loader.Result(2, 2, dir.resolve("some.csv.rejected")), result);
        assertEquals("bad,1,1,1,1996-01-01,a,b,true\n3,1,1,1,1996-01-01,\"multi\nline\",b,nope\n",
                Files.readString(result.rejectFile()));
        assertEquals(List.of(row(0), row(1), row(4)), query("select i from t order by i"));
    }

    @Test
    void createInfersTheSchemaFromTheHeaderAndValues() throws IOException {
        Path file = write("new.csv", "id,price,when,name,flag,big,ratio\n1,1.50,2020-01-02,x,true,9999999999,1e3\n"
                + "2,20.25,2020-01-03,,false,1,0.5\n");
        assertEquals(2, update("COPY fresh FROM '" + sqlPath(file) + "' (CREATE true)"));
        assertEquals("[id INTEGER, price DECIMAL(18,2), when DATE, name VARCHAR, flag BOOLEAN, big BIGINT, ratio DOUBLE]",
                db.catalog().table("fresh").orElseThrow().schema().fields().toString());
        assertEquals(List.of(row(2, new BigDecimal("20.25"), null)), query("select id, price, name from fresh where id = 2"));
        // a type that a later value rules out is not what an earlier value's next candidate is: 1 is no date
        Path mixed = write("mixed.csv", "n,d\n1,1\n2.5,2020-01-02\n");
        update("COPY mixed FROM '" + sqlPath(mixed) + "' (CREATE true)");
        assertEquals("[n DECIMAL(18,1), d VARCHAR]", db.catalog().table("mixed").orElseThrow().schema().fields().toString());
        // the bad value comes after the rows that inference samples
        Path bad = write("bad.csv", "1\n".repeat(SchemaInference.SAMPLE_ROWS + 1) + "x\n");
        WarpException e = assertThrows(WarpException.class, () -> update("COPY other FROM '" + sqlPath(bad) + "' (CREATE true, HEADER false)"));
        assertEquals("22P02", e.sqlState());
        assertTrue(db.catalog().table("other").isEmpty(), "a failed load leaves no table behind");
    }

    @Test
    void timestampsLoadWithMicrosecondsAndAreInferred() throws IOException {
        Path file = write("ts.csv", "id,happened\n1,2024-01-02 03:04:05.123456\n2,1969-12-31 23:59:59\n3,\n4,2024-01-02T03:04\n");
        assertEquals(4, update("COPY ts FROM '" + sqlPath(file) + "' (CREATE true)"));
        assertEquals("[id INTEGER, happened TIMESTAMP]", db.catalog().table("ts").orElseThrow().schema().fields().toString());
        assertEquals(List.of(row(1, "2024-01-02 03:04:05.123456"), row(2, "1969-12-31 23:59:59"), row(3, null),
                row(4, "2024-01-02 03:04:00")), query("select id, cast(happened as varchar) from ts order by id"));
        assertRejectedAs("ts", "5,2024-01-02 24:00:00\n", "22007", "expected a TIMESTAMP (yyyy-mm-dd hh:mm:ss[.ffffff]), found '2024-01-02 24:00:00' (column happened)");
    }

    @Test
    void narrowTypesLoadInTheirRanges() throws IOException {
        update("create table small (s smallint, t tinyint, r real)");
        Path file = write("small.csv", "-32768,-128,0.1\n32767,127,-3.4028235e38\n,,\n");
        assertEquals(3, update("COPY small FROM '" + sqlPath(file) + "' (HEADER false)"));
        assertEquals(List.of(row((short) -32768, (byte) -128, 0.1f), row((short) 32767, (byte) 127, -3.4028235e38f), row(null, null, null)),
                query("select * from small order by s nulls last"));
        assertRejectedAs("small", "32768,0,0\n", "22003", "expected a SMALLINT (-32768..32767), found '32768' (column s)");
        assertRejectedAs("small", "0,-129,0\n", "22003", "expected a TINYINT (-128..127), found '-129' (column t)");
        assertRejectedAs("small", "0,0,1e39\n", "22003", "expected a REAL (at most 3.4028235E38 in magnitude), found '1e39' (column r)");
    }

    private void assertRejectedAs(String table, String csv, String state, String message) throws IOException {
        Path file = write(table + "-bad.csv", csv);
        WarpException e = assertThrows(WarpException.class, () -> update("COPY " + table + " FROM '" + sqlPath(file) + "' (HEADER false)"));
        assertEquals(state, e.sqlState());
        assertTrue(e.getMessage().endsWith(message), e.getMessage());
    }

    @Test
    void copySyntaxErrorsArePositioned() {
        WarpException e = assertThrows(WarpException.class, () -> update("COPY t FROM 'x.csv' (COLOR red)"));
        assertEquals("42601", e.sqlState());
        assertTrue(e.getMessage().startsWith("syntax error at line 1, column 22: expected an option (FORMAT, HEADER"), e.getMessage());
        assertEquals("42601", assertThrows(WarpException.class, () -> update("COPY t FROM x.csv")).sqlState());
        assertEquals("22023", assertThrows(WarpException.class, () -> update("COPY t FROM 'x.csv' (DELIMITER ',,')")).sqlState());
    }
}
