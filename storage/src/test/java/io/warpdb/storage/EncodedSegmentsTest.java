package io.warpdb.storage;

import static io.warpdb.storage.TestData.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.data.encoded.ChunkValidity;
import io.warpdb.core.data.encoded.ChunkValues;
import io.warpdb.core.data.encoded.EncodedColumnChunk;
import io.warpdb.core.data.encoded.EncodedSegment;
import io.warpdb.core.data.encoded.ChunkLayout;
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

/** {@link TableSource#encodedSegments}: a table's stored chunks (in files or in memory), pruned as scans prune, when every row is in one. */
class EncodedSegmentsTest {
    private static final Schema SCHEMA = Schema.of(
            new Field("k", DataType.BIGINT.withNullable(false)),
            new Field("name", DataType.varchar(20)));
    private static final int SEGMENTS = 4;
    private static final int SEGMENT_ROWS = 1000;

    @TempDir
    Path dir;
    private BufferAllocator root;
    private BufferAllocator query;
    private Catalog catalog;
    private Table table;

    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        query = root.newChildAllocator("query", 0, Long.MAX_VALUE);
        catalog = Catalog.open(dir, root, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS));
        table = catalog.create("t", SCHEMA, false);
        List<List<Object>> rows = new ArrayList<>();
        for (long k = 0; k < SEGMENTS * SEGMENT_ROWS; k++) {
            rows.add(row(k, k % 3 == 0 ? null : "n" + k % 7));
        }
        table.append(TestData.stream(SCHEMA, rows, query));
    }

    @AfterEach
    void tearDown() {
        catalog.close();
        query.close();
        assertEquals(0, root.getAllocatedMemory(), "leaked Arrow memory");
        root.close();
    }

    @Test
    void describesEachKeptSegmentsRequestedColumnsInOrder() {
        ScanStats before = catalog.scanStats();
        ColumnPredicate lastTwoSegments = new ColumnPredicate(0, Comparison.GE, Literal.ofLong(2500, DataType.BIGINT));
        List<EncodedSegment> segments = table.snapshot().encodedSegments(List.of(1, 0), List.of(lastTwoSegments)).orElseThrow();
        assertEquals(2, segments.size());
        ScanStats after = catalog.scanStats();
        assertEquals(2, after.segmentsRead() - before.segmentsRead());
        assertEquals(2, after.segmentsSkipped() - before.segmentsSkipped());
        for (EncodedSegment segment : segments) {
            assertEquals(SEGMENT_ROWS, segment.rowCount());
            EncodedColumnChunk name = segment.columns().get(0);
            EncodedColumnChunk key = segment.columns().get(1);
            assertEquals(ChunkLayout.INT32, name.layout(), "string codes");
            assertInstanceOf(ChunkValues.Dictionary.class, name.values());
            assertFalse(name.validity() instanceof ChunkValidity.NoNulls, "every third name is NULL");
            assertEquals(ChunkLayout.INT64, key.layout());
            assertInstanceOf(ChunkValidity.NoNulls.class, key.validity());
        }
    }

    @Test
    void noEncodedSegmentsWithDeletedRowsOrRowIds() {
        TableSource before = table.snapshot();
        assertTrue(before.encodedSegments(List.of(0), List.of()).isPresent());
        assertTrue(before.encodedSegments(List.of(Table.ROW_ID), List.of()).isEmpty());
        List<Long> firstRow = DurableCatalogTest.rowIdsWhere(before, k -> k == 0, query);
        try (BatchStream rowIds = DurableCatalogTest.rowIdStream(firstRow, query)) {
            assertEquals(1, table.delete(before, rowIds));
        }
        assertTrue(table.snapshot().encodedSegments(List.of(0), List.of()).isEmpty());
        // Deleted rows in a segment the predicates prune do not matter.
        ColumnPredicate notFirstSegment = new ColumnPredicate(0, Comparison.GE, Literal.ofLong(SEGMENT_ROWS, DataType.BIGINT));
        assertEquals(SEGMENTS - 1, table.snapshot().encodedSegments(List.of(0), List.of(notFirstSegment)).orElseThrow().size());
    }

    @Test
    void inMemoryTablesHoldAndOfferTheChunksAFileWouldHold() {
        try (Catalog memory = new Catalog(root, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS))) {
            Table inMemory = memory.create("t", SCHEMA, false);
            try (BatchStream rows = table.snapshot().scan(List.of(0, 1), query)) {
                inMemory.append(rows);
            }
            assertEquals(table.columnSizes(), inMemory.columnSizes(), "same encodings and encoded bytes as the files");
            assertEquals(inMemory.bytes(), inMemory.residentBytes(), "resident: the encoded chunks, nothing decoded");
            assertEquals(0, table.residentBytes(), "a durable table's chunks stay in its files");
            assertEquals(TestData.read(table.snapshot(), query), TestData.read(inMemory.snapshot(), query));
            assertTrue(memory.cacheStats().bytes() > 0, "the scan decoded into the cache");

            TableSource before = inMemory.snapshot();
            List<EncodedSegment> offered = before.encodedSegments(List.of(1, 0), List.of()).orElseThrow();
            List<EncodedSegment> stored = table.snapshot().encodedSegments(List.of(1, 0), List.of()).orElseThrow();
            assertEquals(SEGMENTS, offered.size());
            for (int s = 0; s < SEGMENTS; s++) {
                for (int c = 0; c < 2; c++) {
                    EncodedColumnChunk a = offered.get(s).columns().get(c);
                    EncodedColumnChunk b = stored.get(s).columns().get(c);
                    assertEquals(b.layout(), a.layout());
                    assertEquals(b.values().getClass(), a.values().getClass());
                    assertEquals(b.validity().getClass(), a.validity().getClass());
                }
            }
            List<Long> firstRow = DurableCatalogTest.rowIdsWhere(before, k -> k == 0, query);
            try (BatchStream rowIds = DurableCatalogTest.rowIdStream(firstRow, query)) {
                assertEquals(1, inMemory.delete(before, rowIds));
            }
            assertTrue(inMemory.snapshot().encodedSegments(List.of(0), List.of()).isEmpty(), "deleted rows: host batches");
            assertEquals(SEGMENTS * SEGMENT_ROWS - 1, TestData.read(inMemory.snapshot(), query).size());
        }
    }

    @Test
    void aChunkReadAgainKeepsItsStringDictionaryInstance() {
        try (Catalog memory = new Catalog(root, StorageOptions.defaults().withSegmentRows(SEGMENT_ROWS))) {
            Table inMemory = memory.create("t", SCHEMA, false);
            try (BatchStream rows = table.snapshot().scan(List.of(0, 1), query)) {
                inMemory.append(rows);
            }
            for (Table t : List.of(table, inMemory)) {
                StringDictionary first = names(t.snapshot()).get(0);
                assertSame(first, names(t.snapshot()).get(0), "described again: the same instance, not parsed again");
                try (BatchStream decoded = t.snapshot().scan(List.of(1), query)) {
                    try (Batch batch = decoded.next()) {
                        assertSame(first, batch.dictionary(0), "decoded on the host: the same instance as described");
                    }
                }
                List<StringDictionary> all = names(t.snapshot());
                assertEquals(SEGMENTS, all.stream().distinct().count(), "one dictionary per chunk");
            }
        }
    }

    private static List<StringDictionary> names(TableSource source) {
        return source.encodedSegments(List.of(1), List.of()).orElseThrow().stream()
                .map(s -> ((ChunkValues.StringEntries) ((ChunkValues.Dictionary) s.columns().get(0).values()).entries()).strings())
                .toList();
    }
}
