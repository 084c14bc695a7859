package io.warpdb.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.Catalog;
import io.warpdb.storage.StorageOptions;
import io.warpdb.storage.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads whose segments fill in parallel: files of several chunks, so that each parsed batch
 * spans many segments and ends inside one, with strings nearly all distinct; every value is
 * read back in order. A bad row in the second chunk, while the first chunk's segments are still
 * filling, fails the load and leaves the table as it was, its Arrow memory all freed.
 */
class LoaderSegmentsTest {
    /** Not a divisor of any chunk's row count: batches cross segment boundaries at varying rows. */
    private static final int SEGMENT_ROWS = 7_777;
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT.withNullable(false)),
            new Field("comment", DataType.varchar(0)), new Field("flag", DataType.chars(1)), new Field("x", DataType.DOUBLE));

    @TempDir
    Path dir;
    private BufferAllocator root;
    private Catalog catalog;

    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        catalog = new Catalog(root, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS));
        catalog.create("t", SCHEMA, false);
    }

    @AfterEach
    void tearDown() {
        catalog.close();
        assertEquals(0, root.getAllocatedMemory(), "the load leaked Arrow memory");
        root.close();
    }

    @Test
    void rowsSpanningManySegmentsAreLoadedInOrderValueByValue() throws IOException {
        List<List<Object>> rows = rows(0, 3 * CsvSource.CHUNK_BYTES / 60, new Random(7));
        Path file = write("many.tbl", rows, -1);
        Loader.Result result = loader().load("t", List.of(file));
        assertEquals(rows.size(), result.rows());
        Table t = catalog.table("t").orElseThrow();
        assertTrue(t.rowCount() > 20L * SEGMENT_ROWS, "spans " + t.rowCount() / SEGMENT_ROWS + " segments");
        assertEquals(rows, read(t));
    }

    @Test
    void aBadRowInTheMiddleLeavesTheTableAsItWas() throws IOException {
        List<List<Object>> before = rows(0, 2 * SEGMENT_ROWS + 5, new Random(1));
        loader().load("t", List.of(write("first.tbl", before, -1)));
        List<List<Object>> more = rows(before.size(), 2 * CsvSource.CHUNK_BYTES / 60, new Random(2));
        int bad = more.size() * 3 / 4; // in the second chunk, after segments of the first
        Path file = write("second.tbl", more, bad);
        WarpException e = assertThrows(WarpException.class, () -> loader().load("t", List.of(file)));
        assertTrue(e.getMessage().contains(file + ":" + (bad + 1) + ":"), e.getMessage());
        assertEquals(before, read(catalog.table("t").orElseThrow()));
    }

    private Loader loader() {
        return new Loader(catalog, root, new LoadOptions(null, null, null, null, null, null, null, 0, null, false),
                Loader.Progress.NONE, 2);
    }

    /** {@code count} rows numbered from {@code first}: a comment distinct in nearly every row, a flag of few values. */
    private static List<List<Object>> rows(long first, int count, Random random) {
        List<List<Object>> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            long k = first + r;
            String comment = r % 10 == 3 ? "repeated " + r % 7 : "comment " + Long.toString(random.nextLong(), 36);
            rows.add(List.of(k, comment, String.valueOf((char) ('A' + r % 3)), k * 0.25));
        }
        return rows;
    }

    /** The rows as a .tbl file; row {@code bad} (unless -1) has a key that is no number. */
    private Path write(String name, List<List<Object>> rows, int bad) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            List<Object> row = rows.get(r);
            text.append(r == bad ? "oops" : row.get(0)).append('|').append(row.get(1)).append('|').append(row.get(2))
                    .append('|').append(row.get(3)).append("|\n");
        }
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private List<List<Object>> read(Table t) {
        List<List<Object>> out = new ArrayList<>();
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE);
                BatchStream s = t.snapshot().scan(List.of(0, 1, 2, 3), q)) {
            for (Batch next = s.next(); next != null; next = s.next()) {
                try (Batch b = next) {
                    for (int r = 0; r < b.rowCount(); r++) {
                        out.add(List.of(b.getObject(0, r), b.getObject(1, r), b.getObject(2, r), b.getObject(3, r)));
                    }
                }
            }
        }
        return out;
    }
}
