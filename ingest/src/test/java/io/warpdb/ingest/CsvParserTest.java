package io.warpdb.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CSV parser's byte paths: strings kept as UTF-8 (looked up while they repeat, appended once
 * nearly all are distinct), CHAR padding, lengths in characters, quoting, NULLs, and rows
 * rejected midway; chunks cut at record boundaries eight bytes at a time.
 */
class CsvParserTest {
    private static final CsvDialect CSV = new CsvDialect((byte) ',', (byte) '"', (byte) '"', false, "", false);
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void tearDown() {
        allocator.close(); // fails on a leak
    }

    private List<LoadedPart> parse(String text, Schema schema, boolean reject, int chunkBytes) throws IOException {
        CsvChunker chunker = new CsvChunker(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), CSV, chunkBytes);
        CsvParser parser = new CsvParser("f.csv", CSV);
        List<LoadedPart> parts = new ArrayList<>();
        BatchAssembly batch = new BatchAssembly(schema, 1, allocator); // one assembly for every chunk, grown by the first, as a load reuses them
        try {
            for (CsvChunker.Chunk c = chunker.next(); c != null; c = chunker.next()) {
                parts.add(parser.parse(c, batch, false, reject));
                batch.reset();
            }
        } catch (RuntimeException e) {
            parts.forEach(LoadedPart::close);
            throw e;
        }
        return parts;
    }

    /** Column {@code c} of every row of the parts, as Java values (null for NULL); closes the parts. */
    private static List<Object> column(List<LoadedPart> parts, int c) {
        List<Object> values = new ArrayList<>();
        for (LoadedPart part : parts) {
            try (Batch b = part.batch()) {
                for (int r = 0; r < b.rowCount(); r++) {
                    if (b.vector(c).isNull(r)) {
                        values.add(null);
                    } else if (b.dictionary(c) != null) {
                        values.add(b.dictionary(c).get(((IntVector) b.vector(c)).get(r)));
                    } else {
                        values.add(b.vector(c).getObject(r));
                    }
                }
            }
        }
        return values;
    }

    private static Schema schema(DataType... types) {
        Field[] fields = new Field[types.length];
        for (int i = 0; i < types.length; i++) {
            fields[i] = new Field("c" + i, types[i]);
        }
        return Schema.of(fields);
    }

    @Test
    void repeatingAndDistinctStringsAcrossTheLookupCutoff() throws IOException {
        StringBuilder csv = new StringBuilder();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String low = i % 2 == 0 ? "N" : "ü";
            String high = "comment " + i + (i % 100 == 0 ? " \"q\"" : "");
            csv.append(low).append(",\"").append(high.replace("\"", "\"\"")).append("\"\n");
            expected.add(high);
        }
        List<LoadedPart> parts = parse(csv.toString(), schema(DataType.VARCHAR, DataType.VARCHAR), false, 1 << 20);
        assertEquals(1, parts.size());
        Batch b = parts.get(0).batch();
        assertTrue(b.dictionary(0).isUnique());
        assertEquals(2, b.dictionary(0).size());
        assertFalse(b.dictionary(1).isUnique()); // nearly all distinct: appended without lookups
        assertEquals(expected, column(parts, 1));
    }

    @Test
    void charDropsTrailingWhiteSpaceAndLengthsCountCharacters() throws IOException {
        String csv = "ab \t,äöü\nab\u3000,€€\n\"\",\n";
        List<LoadedPart> parts = parse(csv, schema(DataType.chars(3), DataType.varchar(3)), false, 1 << 20);
        List<Object> chars = column(parts, 0);
        assertEquals(List.of("ab", "ab"), chars.subList(0, 2));
        assertEquals("", chars.get(2)); // quoted: an empty string, not NULL
        parts = parse(csv, schema(DataType.chars(3), DataType.varchar(3)), false, 1 << 20);
        List<Object> varchars = column(parts, 1);
        assertEquals("äöü", varchars.get(0));
        assertEquals("€€", varchars.get(1));
        assertNull(varchars.get(2)); // unquoted empty: NULL

        WarpException e = assertThrows(WarpException.class,
                () -> parse("a,äöüx\n", schema(DataType.chars(3), DataType.varchar(3)), false, 1 << 20));
        assertEquals("22001", e.sqlState());
        assertEquals("f.csv:1:3: expected a VARCHAR(3) of at most 3 characters, found 'äöüx' (column c1)", e.getMessage());
    }

    @Test
    void wideDecimalsParseIntoDecimal128() throws IOException {
        String csv = "99999999999999999999999999999999.999999,1\n-12345678901234567890.5,2\n,3\n0.0000005,4\n";
        DataType wide = DataType.decimal(38, 6);
        List<Object> values = column(parse(csv, schema(wide, DataType.INTEGER), false, 1 << 20), 0);
        assertEquals(List.of(new BigDecimal("99999999999999999999999999999999.999999"), new BigDecimal("-12345678901234567890.500000")),
                values.subList(0, 2));
        assertNull(values.get(2));
        assertEquals(new BigDecimal("0.000001"), values.get(3)); // rounded half up to the scale

        WarpException tooWide = assertThrows(WarpException.class,
                () -> parse("100000000000000000000000000000000,1\n", schema(wide, DataType.INTEGER), false, 1 << 20));
        assertEquals("22003", tooWide.sqlState());
        WarpException notANumber = assertThrows(WarpException.class,
                () -> parse("12x,1\n", schema(wide, DataType.INTEGER), false, 1 << 20));
        assertTrue(notANumber.getMessage().startsWith("f.csv:1:1: "), notANumber.getMessage());
    }

    @Test
    void invalidUtf8InAStringIsABadValue() {
        byte[] text = {'a', ',', 'b', (byte) 0xC3, 'c', '\n'};
        CsvChunker chunker = new CsvChunker(new ByteArrayInputStream(text), CSV, 1 << 10);
        WarpException e = assertThrows(WarpException.class,
                () -> new CsvParser("f.csv", CSV).parse(chunker.next(),
                        new BatchAssembly(schema(DataType.VARCHAR, DataType.VARCHAR), 1, allocator), false, false));
        assertEquals("22021", e.sqlState());
        assertTrue(e.getMessage().startsWith("f.csv:1:3: expected valid UTF-8 text"), e.getMessage());
    }

    /**
     * Field ends and ASCII are found eight bytes at a time: a bad UTF-8 byte at every position of a long field, and
     * right before the delimiter, is still caught, and valid multi-byte text anywhere in a field is kept.
     */
    @Test
    void utf8IsCheckedAtEveryPositionOfALongField() throws IOException {
        for (int at = 0; at < 20; at++) {
            byte[] text = ("x,aaaaaaaaaaaaaaaaaaaa,1\n").getBytes(StandardCharsets.US_ASCII);
            text[2 + at] = (byte) 0xC3;
            CsvChunker chunker = new CsvChunker(new ByteArrayInputStream(text), CSV, 1 << 10);
            WarpException e = assertThrows(WarpException.class,
                    () -> new CsvParser("f.csv", CSV).parse(chunker.next(),
                            new BatchAssembly(schema(DataType.VARCHAR, DataType.VARCHAR, DataType.INTEGER), 1, allocator), false, false));
            assertTrue(e.getMessage().startsWith("f.csv:1:3: expected valid UTF-8 text"), at + ": " + e.getMessage());
        }
        for (int at = 0; at < 20; at++) {
            String value = "a".repeat(at) + "é" + "b".repeat(19 - at);
            List<LoadedPart> parts = parse("x," + value + ",1\ny,z,2\n", schema(DataType.VARCHAR, DataType.VARCHAR, DataType.INTEGER),
                    false, 1 << 10);
            assertEquals(List.of(value, "z"), column(parts, 1));
        }
    }

    @Test
    void aRowRejectedMidwayLeavesNoNullBehind() throws IOException {
        // Row 2 sets column 0 to NULL, then fails on column 1; row 3 takes its place.
        String csv = "1,1\n,x\n3,3\n";
        List<LoadedPart> parts = parse(csv, schema(DataType.BIGINT, DataType.INTEGER), true, 1 << 20);
        assertEquals(1, parts.get(0).rejections().size());
        assertEquals("f.csv:2:2: expected an INTEGER, found 'x' (column c1)", parts.get(0).rejections().get(0).exception("").getMessage());
        try (Batch b = parts.get(0).batch()) {
            assertEquals(2, b.rowCount());
            assertFalse(b.vector(0).isNull(1));
            assertEquals(3L, ((BigIntVector) b.vector(0)).get(1));
        }
    }

    @Test
    void chunksEndAtRecordBoundariesWithQuotedLineEndsAndCountLines() throws IOException {
        StringBuilder csv = new StringBuilder();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String value = i % 7 == 0 ? "multi\nline " + i : i % 5 == 0 ? "quote \"\" " + i : "plain value " + i;
            csv.append(i).append(",\"").append(value).append("\"\n");
            expected.add(value.replace("\"\"", "\""));
        }
        // Small chunks: many cuts, some within eight bytes of a quote.
        List<LoadedPart> parts = parse(csv.toString(), schema(DataType.INTEGER, DataType.VARCHAR), false, 64);
        assertTrue(parts.size() > 50);
        assertEquals(expected, column(parts, 1));

        String bad = csv + "x,\"y\"\n";
        WarpException e = assertThrows(WarpException.class,
                () -> parse(bad, schema(DataType.INTEGER, DataType.VARCHAR), false, 64));
        long lines = csv.chars().filter(ch -> ch == '\n').count();
        assertEquals("f.csv:" + (lines + 1) + ":1: expected an INTEGER, found 'x' (column c0)", e.getMessage());
    }

    @Test
    void aReusedAssemblyCarriesNothingOverFromTheChunkBefore() throws IOException {
        // Chunks of 64 bytes: NULLs and repeated strings in the first, none in the later ones, a boolean column
        // whose values flip; every chunk after the first is assembled in the arrays of the one before.
        StringBuilder csv = new StringBuilder(",,a,true\n,,a,true\n,,a,true\n");
        List<Object> ints = new ArrayList<>();
        List<Object> strings = new ArrayList<>();
        List<Object> flags = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ints.add(null);
            strings.add("a");
            flags.add(true);
        }
        for (int i = 0; i < 200; i++) {
            csv.append(i).append(',').append(i * 10L).append(",distinct ").append(i).append(',').append(i % 3 == 0).append('\n');
            ints.add(i);
            strings.add("distinct " + i);
            flags.add(i % 3 == 0);
        }
        Schema schema = schema(DataType.INTEGER, DataType.BIGINT, DataType.VARCHAR, DataType.BOOLEAN);
        List<LoadedPart> parts = parse(csv.toString(), schema, false, 64);
        assertTrue(parts.size() > 20);
        for (LoadedPart part : parts.subList(1, parts.size())) {
            assertEquals(0, part.batch().vector(0).getNullCount());
        }
        List<LoadedPart> again = parse(csv.toString(), schema, false, 64);
        List<LoadedPart> third = parse(csv.toString(), schema, false, 64);
        assertEquals(ints, column(parts, 0));
        assertEquals(strings, column(again, 2));
        assertEquals(flags, column(third, 3));
    }
}
