package io.warpdb.storage;

import static io.warpdb.storage.TestData.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Zone maps let a selective scan read only the segments that may hold matching rows. */
class PruningTest {
    private static final Schema SCHEMA = Schema.of(
            new Field("k", DataType.BIGINT.withNullable(false)),
            new Field("name", DataType.varchar(20)),
            new Field("price", DataType.decimal(12, 2)),
            new Field("note", DataType.VARCHAR));
    private static final int SEGMENTS = 10;
    private static final int SEGMENT_ROWS = 1000;

    @TempDir
    Path dir;
    private BufferAllocator root;
    private BufferAllocator query;
    private Catalog catalog;
    private TableSource table;

    /** Keys 0..9999 in order; name "seg-<segment>"; price k/100; note NULL only in segment 7. */
    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        query = root.newChildAllocator("query", 0, Long.MAX_VALUE);
        catalog = Catalog.open(dir, root, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS));
        Table t = catalog.create("sorted", SCHEMA, false);
        List<List<Object>> rows = new ArrayList<>();
        for (long k = 0; k < SEGMENTS * SEGMENT_ROWS; k++) {
            long segment = k / SEGMENT_ROWS;
            rows.add(row(k, "seg-" + segment, k, segment == 7 && k % 2 == 0 ? null : "note"));
        }
        t.append(TestData.stream(SCHEMA, rows, query));
        table = t.snapshot();
    }

    @AfterEach
    void tearDown() {
        catalog.close();
        query.close();
        assertEquals(0, root.getAllocatedMemory(), "leaked Arrow memory");
        root.close();
    }

    /** Rows of a scan with the predicates, and the segments and chunks it read. */
    private record Scan(List<List<Object>> rows, long segmentsRead, long segmentsSkipped, long chunksRead) {
    }

    private Scan scan(List<Integer> columns, ColumnPredicate... predicates) {
        ScanStats before = catalog.scanStats();
        List<List<Object>> rows = TestData.read(table, columns, List.of(predicates), query);
        ScanStats after = catalog.scanStats();
        return new Scan(rows, after.segmentsRead() - before.segmentsRead(), after.segmentsSkipped() - before.segmentsSkipped(),
                after.chunksRead() - before.chunksRead());
    }

    private static ColumnPredicate on(int column, Comparison op, Literal value) {
        return new ColumnPredicate(column, op, value);
    }

    private static Literal bigint(long v) {
        return Literal.ofLong(v, DataType.BIGINT);
    }

    @Test
    void aKeyRangeReadsOneSegmentOfTen() {
        Scan s = scan(List.of(0, 1), on(0, Comparison.GE, bigint(4200)), on(0, Comparison.LT, bigint(4300)));
        assertEquals(1, s.segmentsRead());
        assertEquals(SEGMENTS - 1, s.segmentsSkipped());
        assertEquals(2, s.chunksRead(), "only the two requested columns of one segment");
        // A hint, not a filter: the whole segment comes back, and it is segment 4.
        assertEquals(SEGMENT_ROWS, s.rows().size());
        assertEquals(row(4000L, "seg-4"), s.rows().get(0));
    }

    @Test
    void rowsKeptCountsTheRowsOfTheKeptSegmentsWithoutReadingThem() {
        ScanStats before = catalog.scanStats();
        assertEquals(SEGMENT_ROWS, table.rowsKept(List.of(on(0, Comparison.GE, bigint(4200)), on(0, Comparison.LT, bigint(4300)))));
        assertEquals(0, table.rowsKept(List.of(on(1, Comparison.EQ, Literal.ofString("seg-99")))));
        assertEquals(SEGMENTS * SEGMENT_ROWS, table.rowsKept(List.of()));
        assertEquals(before.segmentsRead(), catalog.scanStats().segmentsRead());
        assertEquals(before.chunksRead(), catalog.scanStats().chunksRead());
    }

    @Test
    void equalityOnStringsDecimalsAndNullTestsPrune() {
        assertEquals(1, scan(List.of(0), on(1, Comparison.EQ, Literal.ofString("seg-3"))).segmentsRead());
        assertEquals(0, scan(List.of(0), on(1, Comparison.EQ, Literal.ofString("seg-99"))).segmentsRead());
        assertEquals(1, scan(List.of(0), on(3, Comparison.IS_NULL, null)).segmentsRead());
        assertEquals(SEGMENTS, scan(List.of(0), on(3, Comparison.IS_NOT_NULL, null)).segmentsRead());
        // price is DECIMAL(12,2) = k/100: 95.00 is key 9500 in the last segment, whatever the literal's type.
        assertEquals(1, scan(List.of(0), on(2, Comparison.GE, Literal.ofLong(95, DataType.INTEGER))).segmentsRead());
        assertEquals(1, scan(List.of(0), on(2, Comparison.GE, new Literal(9500L, DataType.decimal(4, 2)))).segmentsRead());
        assertEquals(2, scan(List.of(0), on(2, Comparison.GT, new Literal(89.985, DataType.DOUBLE))).segmentsRead()); // 89.99 is key 8999
    }

    @Test
    void scanPartsAreTheKeptSegmentsInRowOrder() {
        List<Integer> columns = List.of(0, 1, Table.ROW_ID);
        List<ColumnPredicate> keys = List.of(on(0, Comparison.GE, bigint(2500)), on(0, Comparison.LT, bigint(5500)));
        ScanStats before = catalog.scanStats();
        List<BatchStream> parts = table.scanParts(columns, keys, query);
        assertEquals(SEGMENTS - 4, catalog.scanStats().segmentsSkipped() - before.segmentsSkipped());
        assertEquals(0, catalog.scanStats().segmentsRead() - before.segmentsRead(), "parts read nothing until pulled");
        assertEquals(4, parts.size(), "segments 2 to 5");
        List<List<Object>> rows = new ArrayList<>();
        // Pulled last part first: each part reads its own segment only.
        for (int p = parts.size() - 1; p >= 0; p--) {
            List<List<Object>> part = TestData.rows(parts.get(p));
            assertEquals(SEGMENT_ROWS, part.size());
            assertEquals((p + 2L) * SEGMENT_ROWS, part.get(0).get(0));
            rows.addAll(0, part);
        }
        assertEquals(TestData.read(table, columns, keys, query), rows);
    }

    @Test
    void rowIdsAloneReadNoChunkAndUnprunedScansReadEverything() {
        Scan ids = scan(List.of(Table.ROW_ID));
        assertEquals(SEGMENTS * SEGMENT_ROWS, ids.rows().size());
        assertEquals(0, ids.chunksRead());
        Scan all = scan(List.of(0, 1, 2, 3), on(0, Comparison.GE, bigint(0)));
        assertEquals(SEGMENTS, all.segmentsRead());
        assertEquals(SEGMENTS * 4L, all.chunksRead());
    }
}
