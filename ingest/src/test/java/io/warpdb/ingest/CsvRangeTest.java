package io.warpdb.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file cut into byte ranges at every offset: consecutive ranges hold each record once (the
 * header in the first), a range that starts inside a quoted field holding a line end is found
 * by its start not being where the range before ended, and a bad value names its line in the file.
 */
class CsvRangeTest {
    private static final Schema SCHEMA = new Schema(List.of(new Field("k", DataType.BIGINT), new Field("s", DataType.VARCHAR)));
    private static final LoadOptions CSV = LoadOptions.of(Map.of("HEADER", "true"));
    private final BufferAllocator allocator = new RootAllocator();

    @TempDir
    Path dir;

    @AfterEach
    void tearDown() {
        allocator.close(); // fails on a leak
    }

    /** The keys of range {@code [from, to)} and where it started and ended. */
    private record Parsed(List<Long> keys, long start, long end) {
    }

    /** The first range ({@code from} 0) starts at the file's start, the others after a line end. */
    private Parsed parse(Path file, long from, long to) {
        List<Long> keys = new ArrayList<>();
        try (CsvRange range = CsvRange.open(file, CSV, SCHEMA, from, from == 0, to, 2, allocator)) {
            for (Batch next = range.next(); next != null; next = range.next()) {
                try (Batch batch = next) {
                    BigIntVector k = (BigIntVector) batch.vector(0);
                    for (int r = 0; r < batch.rowCount(); r++) {
                        keys.add(k.get(r));
                    }
                }
            }
            return new Parsed(keys, range.start(), range.end());
        }
    }

    @Test
    void consecutiveRangesHoldEveryRecordOnce() throws IOException {
        StringBuilder text = new StringBuilder("k,s\n");
        List<Long> all = new ArrayList<>();
        for (long k = 0; k < 40; k++) {
            text.append(k).append(k % 3 == 0 ? ",\"quoted, no line end\"\n" : ",plain\n");
            all.add(k);
        }
        Path file = Files.writeString(dir.resolve("a.csv"), text);
        long size = Files.size(file);
        for (int ranges = 1; ranges <= 5; ranges++) {
            for (long shift = 0; shift < 23; shift += 7) {
                List<Long> keys = new ArrayList<>();
                long expectedStart = 0;
                for (int i = 0; i < ranges; i++) {
                    long from = i == 0 ? 0 : Math.max(1, Math.min(size, size * i / ranges + shift));
                    long to = i == ranges - 1 ? size : Math.min(size, size * (i + 1) / ranges + shift);
                    Parsed p = parse(file, from, to);
                    assertEquals(expectedStart, p.start(), "range " + i + " of " + ranges);
                    keys.addAll(p.keys());
                    expectedStart = p.end();
                }
                assertEquals(size, expectedStart);
                assertEquals(all, keys, ranges + " ranges shifted by " + shift);
            }
        }
    }

    @Test
    void aRangeStartingInsideAQuotedLineEndDoesNotMeetTheOneBefore() throws IOException {
        Path file = Files.writeString(dir.resolve("q.csv"), "k,s\n1,\"two\nlines\"\n2,x\n");
        long inside = "k,s\n1,\"tw".length();
        Parsed first = parse(file, 0, inside);
        assertEquals(List.of(1L), first.keys());
        // the second range reads the quoted field's second line as a record: whatever it finds is not to be trusted
        assertThrows(WarpException.class, () -> parse(file, inside, Files.size(file)));
        assertNotEquals(first.end(), CsvRange.recordStart(file, inside));
        // told where it really starts, the second range holds the rest
        try (CsvRange range = CsvRange.open(file, CSV, SCHEMA, first.end(), true, Files.size(file), 1, allocator)) {
            try (Batch batch = range.next()) {
                assertEquals(1, batch.rowCount());
            }
            assertEquals(null, range.next());
            assertEquals(Files.size(file), range.end());
        }
    }

    @Test
    void aBadValueNamesItsLineInTheFile() throws IOException {
        StringBuilder text = new StringBuilder("k,s\n");
        for (int k = 0; k < 30; k++) {
            text.append(k == 20 ? "x20" : Integer.toString(k)).append(",v\n");
        }
        Path file = Files.writeString(dir.resolve("bad.csv"), text);
        WarpException e = assertThrows(WarpException.class, () -> parse(file, Files.size(file) / 2, Files.size(file)));
        assertEquals("22P02", e.state().code());
        assertTrue(e.getMessage().startsWith(file + ":22:1: "), e.getMessage());
    }

    @Test
    void splitsOnlyUncompressedText() throws IOException {
        Path gz = dir.resolve("a.csv.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write("k,s\n1,a\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        assertEquals(false, CsvRange.splittable(gz, CSV));
        assertEquals(true, CsvRange.splittable(Files.writeString(dir.resolve("b.tbl"), "1|a|\n"), LoadOptions.DEFAULTS));
        assertEquals(false, CsvRange.splittable(dir.resolve("c.parquet"), LoadOptions.DEFAULTS));
    }
}
