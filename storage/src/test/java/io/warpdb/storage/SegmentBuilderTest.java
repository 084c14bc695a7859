package io.warpdb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.storage.encoding.ChunkCodec;
import io.warpdb.storage.encoding.DecodedColumn;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

/**
 * Batches are copied into the segment being filled as they arrive, into columns reused from one
 * segment to the next: batches that straddle segment boundaries, NULLs in one segment and none in
 * the next, string dictionaries of UTF-8 (loads) and of Strings mixed in one segment; segments
 * filled and encoded by the appending thread when the pool is busy; a copy that fails on the pool.
 */
class SegmentBuilderTest {
    private static final Schema SCHEMA = Schema.of(new Field("i", DataType.INTEGER), new Field("s", DataType.varchar(0)),
            new Field("c", DataType.chars(5)), new Field("d", DataType.DOUBLE));

    /**
     * A first batch of 3 rows under a dictionary of 15,000 customer comments (a node's rows of a parsed
     * batch in a cluster COPY) sizes the segment's dictionary for 16 such batches, not for a million rows like it
     * (that asked for a 2 GB array on a node with a 1 GB heap); a full batch sizes it for the segment.
     */
    @Test
    void aSmallFirstBatchUnderALargeDictionaryPresizesForAFewBatches() {
        SegmentBuilder.DictionarySize small = SegmentBuilder.DictionarySize.presized(15_000, 15_000L * 70, 3, 1 << 20);
        assertEquals(48, small.entries(), "16 batches of 3 rows, each value distinct");
        assertEquals(48 * 70, small.bytes());
        SegmentBuilder.DictionarySize full = SegmentBuilder.DictionarySize.presized(65_536, 65_536L * 70, 65_536, 1 << 20);
        assertEquals(1 << 20, full.entries(), "the segment's million rows, each value distinct");
        assertEquals((1 << 20) * 70, full.bytes());
        SegmentBuilder.DictionarySize flags = SegmentBuilder.DictionarySize.presized(3, 3, 65_536, 1 << 20);
        assertEquals(48, flags.entries(), "three values in 65,536 rows: as many per row");
        assertEquals(48, flags.bytes());
    }

    @Test
    void segmentsHoldTheRowsInOrderWhateverTheBatchesAndReusedColumns() {
        int[] batchSizes = {3, 5, 1, 7, 2, 4, 4, 1};
        List<List<Object>> all = new ArrayList<>();
        try (BufferAllocator a = new RootAllocator()) {
            List<BuiltSegment> segments = new ArrayList<>();
            AtomicLong ids = new AtomicLong();
            try (SegmentBuilder builder = new SegmentBuilder("t", SCHEMA, 4, a, ids::incrementAndGet)) {
                for (int b = 0; b < batchSizes.length; b++) {
                    List<List<Object>> rows = new ArrayList<>();
                    for (int r = 0; r < batchSizes[b]; r++) {
                        long n = all.size();
                        // NULLs only among the first six rows; strings repeat within and across batches.
                        rows.add(TestData.row(n < 6 && n % 2 == 0 ? null : n, n < 6 && n % 3 == 0 ? null : "v" + n % 5,
                                "c" + n % 3, n * 0.5));
                        all.add(rows.get(r));
                    }
                    Batch batch = TestData.batch(SCHEMA, rows, a);
                    segments.addAll(builder.add(b % 2 == 1 ? withUtf8Dictionaries(batch) : batch));
                }
                segments.addAll(builder.finish());
            }
            assertEquals(List.of(4, 4, 4, 4, 4, 4, 3), segments.stream().map(BuiltSegment::rowCount).toList());
            assertEquals(all, decode(segments, a));
            assertEquals(List.of(2L, 1L, 0L, 0L, 0L, 0L, 0L),
                    segments.stream().map(s -> s.zoneMaps().get(0).nullCount()).toList(), "a reused column keeps no NULL");
            assertEquals(new ZoneMap(0, "v0", "v4"), segments.get(2).zoneMaps().get(1));
        }
    }

    @Test
    void theAppendingThreadEncodesTheSegmentsItWaitsFor() throws InterruptedException {
        // Every worker of the common pool is held: the segments get encoded only if the appending thread does it.
        int workers = ForkJoinPool.getCommonPoolParallelism();
        CountDownLatch holding = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        for (int w = 0; w < workers; w++) {
            ForkJoinPool.commonPool().execute(() -> {
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        try (BufferAllocator a = new RootAllocator()) {
            assertTrue(holding.await(30, TimeUnit.SECONDS));
            List<List<Object>> all = new ArrayList<>();
            List<BuiltSegment> segments = new ArrayList<>();
            AtomicLong ids = new AtomicLong();
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                try (SegmentBuilder builder = new SegmentBuilder("t", SCHEMA, 3, a, ids::incrementAndGet)) {
                    for (int b = 0; b < workers + 4; b++) {
                        List<List<Object>> rows = new ArrayList<>();
                        for (int r = 0; r < 3; r++) {
                            long n = all.size();
                            rows.add(TestData.row(n, "v" + n % 4, "c" + n % 2, n * 0.25));
                            all.add(rows.get(r));
                        }
                        segments.addAll(builder.add(TestData.batch(SCHEMA, rows, a)));
                    }
                    segments.addAll(builder.finish());
                }
            });
            assertEquals(all, decode(segments, a));
        } finally {
            release.countDown();
        }
    }

    @Test
    void aCopyThatFailsFailsTheAppendsAndLeavesNothingAllocated() {
        BufferAllocator a = new RootAllocator();
        AtomicLong ids = new AtomicLong();
        RuntimeException failure;
        try (SegmentBuilder builder = new SegmentBuilder("t", SCHEMA, 4, a, ids::incrementAndGet)) {
            failure = assertThrows(RuntimeException.class, () -> {
                for (int b = 0; b < 12; b++) {
                    List<List<Object>> rows = new ArrayList<>();
                    for (int r = 0; r < 3; r++) {
                        rows.add(TestData.row((long) r, "v" + b + "." + r, "c", 0.5));
                    }
                    Batch batch = TestData.batch(SCHEMA, rows, a);
                    if (b == 5) { // string codes past their dictionary: the copies into the 4th and 5th segments throw
                        List<StringDictionary> dictionaries = new ArrayList<>(batch.dictionaries());
                        dictionaries.set(1, StringDictionary.ofValues(new String[] {"only"}));
                        batch = new Batch(SCHEMA, new ArrayList<>(batch.vectors()), dictionaries, batch.rowCount());
                    }
                    builder.add(batch);
                }
                builder.finish();
            });
        }
        assertTrue(failure instanceof ArrayIndexOutOfBoundsException, failure.toString());
        assertEquals(0, a.getAllocatedMemory(), "the builder leaked Arrow memory");
        a.close();
    }

    /** The batch with each string column's dictionary as UTF-8 bytes (the form loads produce), entries in the same order. */
    private static Batch withUtf8Dictionaries(Batch batch) {
        List<StringDictionary> dictionaries = new ArrayList<>();
        for (int c = 0; c < batch.columnCount(); c++) {
            StringDictionary strings = batch.dictionary(c);
            if (strings == null) {
                dictionaries.add(null);
                continue;
            }
            Utf8Dictionary utf8 = new Utf8Dictionary(strings.size(), 16);
            for (int code = 0; code < strings.size(); code++) {
                byte[] bytes = strings.get(code).getBytes(StandardCharsets.UTF_8);
                utf8.append(bytes, 0, bytes.length);
            }
            dictionaries.add(StringDictionary.ofUtf8(utf8.build(), false));
        }
        return new Batch(batch.schema(), new ArrayList<>(batch.vectors()), dictionaries, batch.rowCount());
    }

    /** The segments' rows, decoded from their chunks. */
    private static List<List<Object>> decode(List<BuiltSegment> segments, BufferAllocator a) {
        List<List<Object>> rows = new ArrayList<>();
        for (BuiltSegment segment : segments) {
            List<DecodedColumn> columns = new ArrayList<>();
            try {
                List<FieldVector> vectors = new ArrayList<>();
                List<StringDictionary> dictionaries = new ArrayList<>();
                for (int c = 0; c < SCHEMA.size(); c++) {
                    columns.add(ChunkCodec.decode(ByteBuffer.wrap(segment.chunks().get(c).bytes()), SCHEMA.type(c), a));
                    vectors.add(columns.get(c).vector());
                    dictionaries.add(columns.get(c).dictionary());
                }
                Batch batch = new Batch(SCHEMA, vectors, dictionaries, segment.rowCount());
                for (int r = 0; r < segment.rowCount(); r++) {
                    List<Object> row = new ArrayList<>();
                    for (int c = 0; c < SCHEMA.size(); c++) {
                        row.add(TestData.value(batch, c, r));
                    }
                    rows.add(row);
                }
            } finally {
                columns.forEach(DecodedColumn::close);
            }
        }
        return rows;
    }
}
