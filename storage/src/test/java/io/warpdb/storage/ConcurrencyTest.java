package io.warpdb.storage;

import static io.warpdb.storage.TestData.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appenders, competing deleters and readers on one durable table at once: every snapshot shows
 * whole commits only (each batch of 100 rows entirely or not at all), and once everything is
 * closed only the current version's files are left.
 */
class ConcurrencyTest {
    private static final Schema SCHEMA = Schema.of(new Field("k", DataType.BIGINT.withNullable(false)), new Field("s", DataType.VARCHAR));
    private static final int BATCH = 100;
    private static final int BATCHES_PER_WRITER = 25;

    @TempDir
    Path dir;

    @Test
    void snapshotsSeeWholeCommitsWhileWritersRace() throws Exception {
        try (BufferAllocator root = new RootAllocator()) {
            try (Catalog catalog = Catalog.open(dir, root, StorageOptions.defaults().withSegmentRows(64))) {
                Table t = catalog.create("t", SCHEMA, false);
                ExecutorService pool = Executors.newFixedThreadPool(6);
                AtomicBoolean writing = new AtomicBoolean(true);
                List<Future<?>> writers = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    int writer = w;
                    writers.add(pool.submit(() -> append(root, t, writer)));
                }
                List<Future<?>> others = new ArrayList<>();
                for (int d = 0; d < 2; d++) {
                    others.add(pool.submit(() -> deleteBatches(root, catalog, t, writing)));
                }
                for (int r = 0; r < 2; r++) {
                    others.add(pool.submit(() -> readWholeBatches(root, catalog, writing)));
                }
                for (Future<?> f : writers) {
                    f.get();
                }
                writing.set(false);
                for (Future<?> f : others) {
                    f.get();
                }
                pool.shutdown();
                Map<Long, Integer> batches = batchSizes(catalog.table("t").orElseThrow().snapshot(), root);
                assertTrue(batches.values().stream().allMatch(n -> n == BATCH), batches.toString());
                assertEquals(2 * BATCHES_PER_WRITER, batches.size() + deletedBatches(catalog), "every batch appended or deleted");
            }
            try (Catalog catalog = Catalog.open(dir, root, StorageOptions.defaults())) {
                long segmentFiles;
                try (Stream<Path> files = Files.list(dir.resolve("data"))) {
                    segmentFiles = files.filter(f -> f.toString().endsWith(".seg")).count();
                }
                long[] segments = {0};
                catalog.manifest().forEachSegment(ref -> segments[0]++);
                assertEquals(segments[0], segmentFiles);
            }
            assertEquals(0, root.getAllocatedMemory());
        }
    }

    private static void append(BufferAllocator root, Table t, int writer) {
        try (BufferAllocator a = root.newChildAllocator("writer", 0, Long.MAX_VALUE)) {
            for (int b = 0; b < BATCHES_PER_WRITER; b++) {
                long batch = writer * 1000L + b;
                List<List<Object>> rows = new ArrayList<>();
                for (int i = 0; i < BATCH; i++) {
                    rows.add(row(batch * BATCH + i, i % 7 == 0 ? null : "w" + writer));
                }
                try (BatchStream s = TestData.stream(SCHEMA, rows, a)) {
                    t.append(s);
                }
            }
        }
    }

    /** Deletes the smallest batch in view, retrying on conflicts with the other deleter. */
    private static void deleteBatches(BufferAllocator root, Catalog catalog, Table t, AtomicBoolean writing) {
        try (BufferAllocator a = root.newChildAllocator("deleter", 0, Long.MAX_VALUE)) {
            for (int done = 0; done < 10 && writing.get(); ) {
                try (CatalogSnapshot snap = catalog.snapshot()) {
                    TableSource source = snap.table("t").orElseThrow();
                    Map<Long, Integer> batches = batchSizes(source, a);
                    if (batches.isEmpty()) {
                        continue;
                    }
                    long victim = batches.keySet().iterator().next();
                    List<Long> ids = DurableCatalogTest.rowIdsWhere(source, k -> k / BATCH == victim, a);
                    try (BatchStream rowIds = DurableCatalogTest.rowIdStream(ids, a)) {
                        assertEquals(BATCH, t.delete(source, rowIds));
                        catalog.setProperty("deleted." + victim, "yes");
                        done++;
                    } catch (WarpException e) {
                        assertTrue(e.getMessage().startsWith("concurrent modification of table t"), e.getMessage());
                    }
                }
            }
        }
    }

    private static void readWholeBatches(BufferAllocator root, Catalog catalog, AtomicBoolean writing) {
        try (BufferAllocator a = root.newChildAllocator("reader", 0, Long.MAX_VALUE)) {
            while (writing.get()) {
                try (CatalogSnapshot snap = catalog.snapshot()) {
                    Map<Long, Integer> batches = batchSizes(snap.table("t").orElseThrow(), a);
                    assertTrue(batches.values().stream().allMatch(n -> n == BATCH), batches.toString());
                }
            }
        }
    }

    private static Map<Long, Integer> batchSizes(TableSource source, BufferAllocator a) {
        Map<Long, Integer> sizes = new TreeMap<>();
        for (List<Object> r : TestData.read(source, List.of(0), List.of(), a)) {
            sizes.merge((Long) r.get(0) / BATCH, 1, Integer::sum);
        }
        return sizes;
    }

    private static long deletedBatches(Catalog catalog) {
        return catalog.properties().keySet().stream().filter(k -> k.startsWith("deleted.")).count();
    }
}
