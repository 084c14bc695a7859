package io.warpdb.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.Batches;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.data.TableSource;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TableTest {
    private static final Schema SCHEMA = Schema.of(new Field("id", DataType.INTEGER.withNullable(false)),
            new Field("name", DataType.varchar(20)));

    private BufferAllocator root;
    private Catalog catalog;

    @BeforeEach
    void setUp() {
        root = new RootAllocator();
        catalog = new Catalog(root);
    }

    @AfterEach
    void tearDown() {
        catalog.close();
        assertEquals(0, root.getAllocatedMemory(), "storage leaked Arrow memory");
        root.close();
    }

    /** A batch of (id, name) rows whose names use a dictionary with unused and repeated entries. */
    private Batch batch(BufferAllocator alloc, Integer[] ids, Integer[] nameCodes) {
        StringDictionary dict = StringDictionary.ofValues(new String[] {"zero", "one", "two", "one"});
        FieldVector idv = Vectors.allocate("id", SCHEMA.type(0), ids.length, alloc);
        FieldVector namev = Vectors.allocate("name", SCHEMA.type(1), ids.length, alloc);
        for (int i = 0; i < ids.length; i++) {
            Vectors.setNormalized(idv, SCHEMA.type(0), i, ids[i] == null ? null : ids[i].longValue());
            Vectors.setNormalized(namev, SCHEMA.type(1), i, nameCodes[i]);
        }
        idv.setValueCount(ids.length);
        namev.setValueCount(ids.length);
        List<StringDictionary> dicts = new ArrayList<>();
        dicts.add(null);
        dicts.add(dict);
        return new Batch(SCHEMA, List.of(idv, namev), dicts, ids.length);
    }

    private static List<List<Object>> rows(TableSource source, List<Integer> columns, BufferAllocator alloc) {
        try (BatchStream s = source.scan(columns, alloc)) {
            return Batches.drainRows(s);
        }
    }

    @Test
    void stagedRowsAreInvisibleUntilPublishedAndGoneWhenDiscarded() {
        Table t = catalog.create("people", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            assertEquals(2, t.stage("a", Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2}, new Integer[] {0, 1})))));
            assertEquals(1, t.stage("b", Batches.of(SCHEMA, List.of(batch(q, new Integer[] {3}, new Integer[] {2})))));
            assertEquals(0, t.rowCount());
            assertEquals(java.util.OptionalLong.of(2), catalog.publishStaged("a", java.util.Map.of()));
            assertEquals(2, t.rowCount());
            assertTrue(catalog.discardStaged("b", java.util.Map.of()));
            assertEquals(List.of(List.of(1, "zero"), List.of(2, "one")), rows(t.snapshot(), List.of(0, 1), q));
            assertThrows(WarpException.class, () -> t.stage("c", Batches.of(SCHEMA,
                    List.of(batch(q, new Integer[] {null}, new Integer[] {0})))));
            assertEquals(java.util.Set.of(), catalog.stagedLoads(), "a NOT NULL violation stages nothing");
        }
    }

    @Test
    void appendThenScanReturnsRowsWithValuesAndNulls() {
        Table t = catalog.create("people", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            long n = t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2, 3}, new Integer[] {1, 3, null}))));
            assertEquals(3, n);
            assertEquals(List.of(List.of(1, "one"), List.of(2, "one"), java.util.Arrays.asList(3, null)),
                    rows(t.snapshot(), List.of(0, 1), q));
            assertEquals(List.of(List.of("one"), List.of("one"), java.util.Collections.singletonList(null)),
                    rows(t.snapshot(), List.of(1), q));
        }
    }

    @Test
    void snapshotDoesNotSeeLaterCommits() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1}, new Integer[] {0}))));
            TableSource before = t.snapshot();
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {2}, new Integer[] {2}))));
            assertEquals(1, rows(before, List.of(0), q).size());
            assertEquals(2, rows(t.snapshot(), List.of(0), q).size());
        }
    }

    @Test
    void notNullViolationAddsNothing() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            BatchStream twoBatches = Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2}, new Integer[] {0, 1}),
                    batch(q, new Integer[] {3, null}, new Integer[] {0, 1})));
            WarpException e = assertThrows(WarpException.class, () -> t.append(twoBatches));
            twoBatches.close();
            assertEquals(SqlState.NOT_NULL_VIOLATION, e.state());
            assertTrue(e.getMessage().contains("id"), e.getMessage());
            assertEquals(0, t.rowCount());
        }
    }

    @Test
    void scanSurvivesDropOfItsTable() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {7}, new Integer[] {2}))));
            BatchStream s = t.snapshot().scan(List.of(0, 1), q);
            try (Batch b = s.next()) {
                catalog.drop("T", false);
                assertEquals("two", b.getObject(1, 0));
            }
            WarpException e = assertThrows(WarpException.class, s::next);
            assertEquals(SqlState.UNDEFINED_TABLE, e.state());
            s.close();
        }
    }

    @Test
    void rowIdsDeleteAndReplaceInMemory() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2, 3, 4}, new Integer[] {0, 1, 2, null}))));
            TableSource before = t.snapshot();
            List<Long> ids = DurableCatalogTest.rowIdsWhere(before, k -> k % 2 == 0, q);
            assertEquals(2, t.delete(before, DurableCatalogTest.rowIdStream(ids, q)));
            assertEquals(List.of(List.of(1, "zero"), List.of(3, "two")), rows(t.snapshot(), List.of(0, 1), q));
            assertEquals(4, before.rowCount(), "a snapshot does not see later deletes");

            TableSource now = t.snapshot();
            Table.Counts counts = t.replace(now, DurableCatalogTest.rowIdStream(DurableCatalogTest.rowIdsWhere(now, k -> k == 3, q), q),
                    Batches.of(SCHEMA, List.of(batch(q, new Integer[] {30}, new Integer[] {1}))));
            assertEquals(new Table.Counts(1, 1), counts);
            assertEquals(List.of(List.of(1, "zero"), List.of(30, "one")), rows(t.snapshot(), List.of(0, 1), q));
        }
    }

    @Test
    void catalogSnapshotsReadTheirVersionUntilClosed() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2}, new Integer[] {1, 2}))));
            CatalogSnapshot snap = catalog.snapshot();
            TableSource old = t.snapshot(); // not pinned
            DurableCatalogTest.deleteWhere(t, k -> true, q); // the only segment is now unused by the current version
            catalog.drop("t", false);
            assertEquals(List.of(List.of(1, "one"), List.of(2, "two")), rows(snap.table("T").orElseThrow(), List.of(0, 1), q));
            assertEquals(SqlState.UNDEFINED_TABLE, assertThrows(WarpException.class, () -> rows(old, List.of(0), q)).state());
            snap.close(); // frees the segment: the leak check in tearDown proves it
            WarpException closed = assertThrows(WarpException.class, () -> snap.table("t"));
            assertTrue(closed.getMessage().contains("is closed"), closed.getMessage());
        }
    }

    @Test
    void closingTheCatalogClosesItsSnapshots() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1}, new Integer[] {1}))));
        }
        CatalogSnapshot forgotten = catalog.snapshot();
        catalog.drop("t", false);
        catalog.close(); // tearDown's leak check proves the snapshot's segment was freed
        assertThrows(WarpException.class, () -> forgotten.table("t"));
        forgotten.close();
    }

    @Test
    void anUnpinnedSnapshotWhoseRowsWereRemovedFailsClearly() {
        Table t = catalog.create("t", SCHEMA, false);
        try (BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1}, new Integer[] {1}))));
            TableSource old = t.snapshot();
            DurableCatalogTest.deleteWhere(t, k -> true, q);
            WarpException e = assertThrows(WarpException.class, () -> rows(old, List.of(0), q));
            assertTrue(e.getMessage().contains("was removed by a later commit"), e.getMessage());
        }
    }

    @Test
    void appendsAreCutIntoSegmentsAndScannedInBatches() {
        try (Catalog small = new Catalog(root, StorageOptions.defaults().withSegmentRows(3).withScanBatchRows(2));
                BufferAllocator q = root.newChildAllocator("q", 0, Long.MAX_VALUE)) {
            Table t = small.create("t", SCHEMA, false);
            t.append(Batches.of(SCHEMA, List.of(batch(q, new Integer[] {1, 2, 3, 4}, new Integer[] {0, 1, 2, 0}),
                    batch(q, new Integer[] {5, 6, 7}, new Integer[] {1, 1, null}))));
            List<Integer> batchSizes = new ArrayList<>();
            try (BatchStream s = t.snapshot().scan(List.of(0), q)) {
                for (Batch b = s.next(); b != null; b = s.next()) {
                    batchSizes.add(b.rowCount());
                    b.close();
                }
            }
            assertEquals(List.of(2, 1, 2, 1, 1), batchSizes); // segments of 3, 3 and 1 rows
            assertEquals(7, t.rowCount());
            assertEquals(3, small.scanStats().segmentsRead());
        }
    }

    @Test
    void namesAreCaseInsensitiveAndDuplicatesRejected() {
        catalog.create("Orders", SCHEMA, false);
        assertTrue(catalog.table("ORDERS").isPresent());
        assertEquals(SqlState.DUPLICATE_TABLE,
                assertThrows(WarpException.class, () -> catalog.create("orders", SCHEMA, false)).state());
        catalog.create("orders", SCHEMA, true);
        assertEquals(SqlState.UNDEFINED_TABLE, assertThrows(WarpException.class, () -> catalog.drop("nope", false)).state());
        catalog.drop("nope", true);
        Schema twice = Schema.of(new Field("a", DataType.INTEGER), new Field("A", DataType.BIGINT));
        assertEquals(SqlState.DUPLICATE_COLUMN, assertThrows(WarpException.class, () -> catalog.create("x", twice, false)).state());
    }
}
