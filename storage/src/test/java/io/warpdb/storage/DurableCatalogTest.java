package io.warpdb.storage;

import static io.warpdb.storage.TestData.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
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
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableCatalogTest {
    static final Schema ALL_TYPES = Schema.of(
            new Field("k", DataType.BIGINT.withNullable(false)),
            new Field("b", DataType.BOOLEAN),
            new Field("i", DataType.INTEGER),
            new Field("l", DataType.BIGINT),
            new Field("d", DataType.DOUBLE),
            new Field("m", DataType.decimal(15, 2)),
            new Field("dt", DataType.DATE),
            new Field("s", DataType.varchar(20)),
            new Field("c", DataType.chars(3)),
            new Field("nn", DataType.varchar(5).withNullable(false)));

    private static final StorageOptions SMALL = StorageOptions.defaults().withSegmentRows(1000).withScanBatchRows(256);

    @TempDir
    Path dir;
    private BufferAllocator root;
    private BufferAllocator query;

    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        query = root.newChildAllocator("query", 0, Long.MAX_VALUE);
    }

    @AfterEach
    void tearDown() {
        query.close();
        assertEquals(0, root.getAllocatedMemory(), "leaked Arrow memory");
        root.close();
    }

    private Catalog open() {
        return Catalog.open(dir, root, SMALL);
    }

    /** Row {@code k}: every nullable column NULL on some rows, extreme and odd values on others. */
    static List<Object> allTypesRow(long k) {
        boolean allNullStretch = k >= 1000 && k < 2000; // one whole segment of NULLs
        Object[] doubles = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 1.5};
        Object[] longs = {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L};
        Object[] strings = {"", "é ü ✓", "𝄞 clef", "plain", "x".repeat(20)};
        return row(k,
                nullEvery(k, 3, allNullStretch, k % 2 == 0),
                nullEvery(k, 5, allNullStretch, k % 7 == 0 ? Integer.MIN_VALUE : k % 7 == 1 ? Integer.MAX_VALUE : k * 31 % 1000),
                nullEvery(k, 7, allNullStretch, k % 11 < 4 ? longs[(int) (k % 11)] : k * 1_000_003L),
                nullEvery(k, 4, allNullStretch, k % 13 < doubles.length ? doubles[(int) (k % 13)] : k / 8.0),
                nullEvery(k, 6, allNullStretch, k % 10 == 0 ? -999_999_999_999_99L : k * 125L),
                nullEvery(k, 9, allNullStretch, 9000L + k % 400 - 200),
                nullEvery(k, 2, allNullStretch, strings[(int) (k % strings.length)]),
                nullEvery(k, 8, allNullStretch, "c" + k % 10),
                "v" + k % 4);
    }

    private static Object nullEvery(long k, int n, boolean allNull, Object value) {
        return allNull || k % n == 1 ? null : value;
    }

    static List<List<Object>> allTypesRows(long from, long to) {
        return LongStream.range(from, to).mapToObj(DurableCatalogTest::allTypesRow).collect(Collectors.toList());
    }

    /** Appends rows [from, to) in batches of {@code batchRows}, as one commit. */
    static long append(Table t, long from, long to, int batchRows, BufferAllocator allocator) {
        List<Batch> batches = new ArrayList<>();
        for (long s = from; s < to; s += batchRows) {
            batches.add(TestData.batch(t.schema(), allTypesRows(s, Math.min(to, s + batchRows)), allocator));
        }
        try (BatchStream stream = Batches.of(t.schema(), batches)) {
            return t.append(stream);
        }
    }

    @Test
    void everyTypeWithNullsRoundTripsThroughReopen() {
        List<List<Object>> expected = allTypesRows(0, 2600);
        try (Catalog catalog = open()) {
            Table t = catalog.create("all_types", ALL_TYPES, false);
            catalog.create("empty", ALL_TYPES, false);
            assertEquals(2600, append(t, 0, 2600, 700, query));
            assertEquals(expected, TestData.read(t.snapshot(), query));
        }
        try (Catalog catalog = open(); CatalogSnapshot snap = catalog.snapshot()) {
            TableSource t = snap.table("ALL_TYPES").orElseThrow();
            assertEquals(ALL_TYPES, t.schema());
            assertEquals(2600, t.rowCount());
            assertEquals(expected, TestData.read(t, query));
            // Only some columns, in another order, one twice.
            List<List<Object>> projected = expected.stream().map(r -> row(r.get(7), r.get(0), r.get(7))).toList();
            assertEquals(projected, TestData.read(t, List.of(7, 0, 7), List.of(), query));
            assertEquals(List.of(), TestData.read(snap.table("empty").orElseThrow(), query));
            assertEquals(List.of("all_types", "empty"), snap.tables().stream().map(TableSource::name).toList());
            List<ColumnSize> sizes = catalog.table("all_types").orElseThrow().columnSizes();
            assertEquals(ALL_TYPES.size(), sizes.size());
            assertTrue(sizes.stream().allMatch(s -> s.bytes() > 0 && !s.encodings().isEmpty()), sizes.toString());
        }
    }

    /** Unsynced (a scratch database's options) only skips the syncs: what it commits reads back, after a clean close too. */
    @Test
    void unsyncedCatalogCommitsAsASyncedOne() {
        List<List<Object>> expected = allTypesRows(0, 2600);
        try (Catalog catalog = Catalog.open(dir, root, SMALL.unsynced())) {
            Table t = catalog.create("all_types", ALL_TYPES, false);
            assertEquals(2600, append(t, 0, 2600, 700, query));
            assertEquals(expected, TestData.read(t.snapshot(), query));
        }
        try (Catalog catalog = Catalog.open(dir, root, SMALL.unsynced()); CatalogSnapshot snap = catalog.snapshot()) {
            assertEquals(expected, TestData.read(snap.table("all_types").orElseThrow(), query));
        }
    }

    @Test
    void deletesAndUpdatesAreCommittedAndSurviveReopen() {
        List<List<Object>> expected = new ArrayList<>(allTypesRows(0, 2500));
        try (Catalog catalog = open()) {
            Table t = catalog.create("t", ALL_TYPES, false);
            append(t, 0, 2500, 1000, query);
            // Delete every row whose key is a multiple of 3, plus all of segment 2 (keys 1000..1999).
            KeyFilter gone = k -> k % 3 == 0 || (k >= 1000 && k < 2000);
            assertEquals(LongStream.range(0, 2500).filter(gone::test).count(), deleteWhere(t, gone, query));
            expected.removeIf(r -> gone.test((long) r.get(0)));
            // Update: keys 1..99 get their string column replaced.
            TableSource before = t.snapshot();
            List<Long> ids = rowIdsWhere(before, k -> k > 0 && k < 100, query);
            List<List<Object>> updated = new ArrayList<>();
            for (List<Object> r : expected) {
                long k = (long) r.get(0);
                if (k > 0 && k < 100) {
                    List<Object> u = new ArrayList<>(r);
                    u.set(7, "updated " + k);
                    updated.add(u);
                }
            }
            Table.Counts counts = t.replace(before, rowIdStream(ids, query), TestData.stream(ALL_TYPES, updated, query));
            assertEquals(new Table.Counts(updated.size(), updated.size()), counts);
            expected.removeIf(r -> (long) r.get(0) > 0 && (long) r.get(0) < 100);
            expected.addAll(updated);
            assertEquals(expected, TestData.read(t.snapshot(), query));
            assertEquals(expected.size(), t.rowCount());
        }
        try (Catalog catalog = open()) {
            Table t = catalog.table("T").orElseThrow();
            assertEquals(expected, TestData.read(t.snapshot(), query));
        }
    }

    interface KeyFilter {
        boolean test(long key);
    }

    /** Row ids of the rows whose key (column 0) passes. */
    static List<Long> rowIdsWhere(TableSource source, KeyFilter filter, BufferAllocator allocator) {
        List<Long> ids = new ArrayList<>();
        for (List<Object> r : TestData.read(source, List.of(Table.ROW_ID, 0), List.of(), allocator)) {
            if (filter.test((long) r.get(1))) {
                ids.add((long) r.get(0));
            }
        }
        return ids;
    }

    static BatchStream rowIdStream(List<Long> ids, BufferAllocator allocator) {
        return TestData.stream(Schema.of(Table.ROW_ID_FIELD), ids.stream().map(id -> row(id)).toList(), allocator);
    }

    static long deleteWhere(Table t, KeyFilter filter, BufferAllocator allocator) {
        TableSource snapshot = t.snapshot();
        try (BatchStream ids = rowIdStream(rowIdsWhere(snapshot, filter, allocator), allocator)) {
            return t.delete(snapshot, ids);
        }
    }

    @Test
    void snapshotKeepsFilesOfOldVersionsUntilClosed() throws IOException {
        try (Catalog catalog = open()) {
            Table t = catalog.create("t", ALL_TYPES, false);
            append(t, 0, 3000, 1000, query);
            assertEquals(1 + 3, dataFiles().size(), dataFiles().toString()); // manifest + 3 segments
            List<List<Object>> all = allTypesRows(0, 3000);
            try (CatalogSnapshot snap = catalog.snapshot()) {
                deleteWhere(t, k -> k < 1000, query);   // empties segment 1: no delete vector, segment gone
                deleteWhere(t, k -> k == 1500, query); // a delete vector for segment 2
                catalog.drop("t", false);
                assertTrue(catalog.table("t").isEmpty());
                // The snapshot still reads everything, from files the current version no longer names.
                assertEquals(all, TestData.read(snap.table("t").orElseThrow(), query));
                assertEquals(1 + 3, dataFiles().size(), dataFiles().toString());
            }
            assertEquals(1, dataFiles().size(), "only the manifest is left: " + dataFiles());
        }
    }

    private List<Path> dataFiles() throws IOException {
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("LOCK")).sorted().toList();
        }
    }

    @Test
    void competingDeletesConflictWhileAppendsAreRebased() {
        try (Catalog catalog = open()) {
            Table t = catalog.create("t", ALL_TYPES, false);
            append(t, 0, 2000, 1000, query);
            TableSource first = t.snapshot();
            TableSource second = t.snapshot();
            append(t, 2000, 2100, 1000, query); // a commit in between that deletes nothing
            try (BatchStream ids = rowIdStream(rowIdsWhere(first, k -> k == 5, query), query)) {
                assertEquals(1, t.delete(first, ids)); // rebased onto the version with the append
            }
            try (BatchStream ids = rowIdStream(rowIdsWhere(second, k -> k == 6, query), query)) {
                WarpException e = assertThrows(WarpException.class, () -> t.delete(second, ids));
                assertEquals(SqlState.INTERNAL_ERROR, e.state());
                assertEquals("concurrent modification of table t; retry", e.getMessage());
            }
            // The other segment was not touched by the first delete: no conflict there.
            try (BatchStream ids = rowIdStream(rowIdsWhere(second, k -> k == 1006, query), query)) {
                assertEquals(1, t.delete(second, ids));
            }
            assertEquals(2100 - 2, t.rowCount());
            List<Object> keys = TestData.read(t.snapshot(), List.of(0), List.of(), query).stream().map(r -> r.get(0)).toList();
            assertFalse(keys.contains(5L) || keys.contains(1006L));
            assertTrue(keys.contains(6L) && keys.contains(2099L));
        }
    }

    @Test
    void propertiesAreCommittedWithTheCatalog() {
        try (Catalog catalog = open()) {
            catalog.setProperty("view.V1", "SELECT 1");
            catalog.setProperty("view.V2", "SELECT 'x'".repeat(10_000)); // longer than DataOutput.writeUTF allows
            catalog.setProperty("view.V1", null);
            assertEquals(Map.of("view.V2", "SELECT 'x'".repeat(10_000)), catalog.properties());
        }
        try (Catalog catalog = open()) {
            assertEquals(Map.of("view.V2", "SELECT 'x'".repeat(10_000)), catalog.properties());
            try (CatalogSnapshot snap = catalog.snapshot()) {
                catalog.setProperty("view.V2", null);
                assertEquals(1, snap.properties().size());
            }
            assertEquals(Map.of(), catalog.properties());
        }
    }

    @Test
    void secondOpenOfTheDirectoryFails() {
        Catalog first = open();
        try {
            WarpException e = assertThrows(WarpException.class, this::open);
            assertEquals(SqlState.CONNECTION_EXCEPTION, e.state());
            assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
        } finally {
            first.close();
        }
        open().close(); // the lock went with the close
    }

    /** Stages rows {@code from} to {@code to} of {@link #allTypesRow} as load {@code load} of {@code t}. */
    private long stage(Table t, String load, long from, long to) {
        try (BatchStream stream = Batches.of(t.schema(), List.of(TestData.batch(t.schema(), allTypesRows(from, to), query)))) {
            return t.stage(load, stream);
        }
    }

    @Test
    void stagedLoadsSurviveReopenUntilPublishedOrDiscarded() throws IOException {
        try (Catalog catalog = open()) {
            Table t = catalog.create("t", ALL_TYPES, false);
            append(t, 0, 10, 10, query);
            assertEquals(1500, stage(t, "kept", 10, 1510));   // two segments
            assertEquals(490, stage(t, "kept", 1510, 2000));  // the same load again: added to it
            assertEquals(5, stage(t, "dropped", 5000, 5005));
            assertEquals(10, t.rowCount());
        }
        // as after a crash between staging and the cluster's commit: both loads are still there, files and all
        assertEquals(1 + 1 + 3 + 1, dataFiles().size(), dataFiles().toString());
        try (Catalog catalog = open()) {
            assertEquals(java.util.Set.of("dropped", "kept"), catalog.stagedLoads());
            Table t = catalog.table("t").orElseThrow();
            assertEquals(10, t.rowCount());
            assertEquals(java.util.OptionalLong.of(1990), catalog.publishStaged("kept", Map.of("applied", "7")));
            assertTrue(catalog.discardStaged("dropped", Map.of("applied", "8")));
            assertEquals(java.util.OptionalLong.empty(), catalog.publishStaged("kept", Map.of("applied", "9")));
            assertFalse(catalog.discardStaged("dropped", Map.of()));
            assertEquals(Map.of("applied", "8"), catalog.properties());
            assertEquals(allTypesRows(0, 2000), TestData.read(t.snapshot(), query));
        }
        assertEquals(1 + 1 + 3, dataFiles().size(), "the discarded load's file is gone: " + dataFiles());
        try (Catalog catalog = open()) {
            assertEquals(java.util.Set.of(), catalog.stagedLoads());
            assertEquals(allTypesRows(0, 2000), TestData.read(catalog.table("t").orElseThrow().snapshot(), query));
        }
    }

    @Test
    void aManifestOfFormatOneWithoutStagedLoadsIsStillRead() throws IOException {
        try (Catalog catalog = open()) {
            append(catalog.create("t", ALL_TYPES, false), 0, 10, 10, query);
        }
        // format 2 is format 1 followed by the staged loads: rewrite the latest manifest as format 1
        Path manifest;
        try (var files = Files.list(dir)) {
            manifest = files.filter(f -> f.getFileName().toString().startsWith("manifest-")).max(Path::compareTo).orElseThrow();
        }
        java.nio.ByteBuffer body = Checksums.unseal("WARPMAN1", Files.readAllBytes(manifest));
        byte[] formatOne = new byte[body.remaining() - Integer.BYTES];
        body.get(formatOne);
        assertEquals(0, body.getInt(), "no staged loads");
        java.nio.ByteBuffer.wrap(formatOne).putInt(0, 1);
        Files.write(manifest, Checksums.seal("WARPMAN1", formatOne));
        try (Catalog catalog = open()) {
            assertEquals(allTypesRows(0, 10), TestData.read(catalog.table("t").orElseThrow().snapshot(), query));
        }
    }

    @Test
    void droppingATableDiscardsItsStagedLoadsAndALoadStaysWithOneTable() throws IOException {
        try (Catalog catalog = open()) {
            Table t = catalog.create("t", ALL_TYPES, false);
            Table u = catalog.create("u", ALL_TYPES, false);
            stage(t, "load", 0, 10);
            WarpException e = assertThrows(WarpException.class, () -> stage(u, "load", 0, 10));
            assertEquals(SqlState.INVALID_PARAMETER_VALUE, e.state());
            assertEquals("load load is staged for another table than u", e.getMessage());
            catalog.drop("t", false);
            assertEquals(java.util.Set.of(), catalog.stagedLoads());
            assertEquals(java.util.OptionalLong.empty(), catalog.publishStaged("load", Map.of()));
        }
        assertEquals(1, dataFiles().size(), "only the manifest is left: " + dataFiles());
    }

    @Test
    void filesOfUnfinishedCommitsAreRemovedOnOpen() throws IOException {
        try (Catalog catalog = open()) {
            append(catalog.create("t", ALL_TYPES, false), 0, 10, 10, query);
        }
        List<Path> committed = dataFiles();
        Files.write(dir.resolve("data").resolve("0000000000000999.seg"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("manifest-00000000000000000099.tmp"), new byte[] {1, 2, 3});
        try (Catalog catalog = open()) {
            assertEquals(committed, dataFiles());
            assertEquals(allTypesRows(0, 10), TestData.read(catalog.table("t").orElseThrow().snapshot(), query));
        }
    }

    @Test
    void cacheCountsHitsMissesAndEvictions() {
        try (Catalog catalog = Catalog.open(dir, root, SMALL.withCacheBytes(30_000))) {
            Table t = catalog.create("t", ALL_TYPES, false);
            append(t, 0, 3000, 1000, query);
            TestData.read(t.snapshot(), List.of(0), List.of(), query);
            TestData.read(t.snapshot(), List.of(0), List.of(), query);
            CacheStats stats = catalog.cacheStats();
            // Three 8000-byte chunks of k: the first pass misses all, the second hits what stayed.
            assertEquals(6, stats.hits() + stats.misses(), stats.toString());
            assertTrue(stats.misses() >= 3 && stats.hits() >= 1, stats.toString());
            assertTrue(stats.bytes() > 0 && stats.bytes() <= 30_000, stats.toString());
            TestData.read(t.snapshot(), List.of(3, 4, 5), List.of(), query);
            assertTrue(catalog.cacheStats().evictions() > 0, catalog.cacheStats().toString());
        }
    }
}
