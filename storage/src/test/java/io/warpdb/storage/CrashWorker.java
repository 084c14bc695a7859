package io.warpdb.storage;

import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.data.TableSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The process {@link CrashTest} kills: commits step after step to a durable catalog, printing
 * {@code committed <n>} after the n-th step has committed. The state after n steps is a pure
 * function of n ({@link #expected}), and a restarted worker finds n from the data, so each run
 * goes on where the last one was killed.
 * <ul>
 *   <li>{@code load}: step n appends rows [n·B, (n+1)·B) of {@link DurableCatalogTest#allTypesRow}.
 *   <li>{@code mutate}: over {@link #MUTATE_ROWS} preloaded rows, step j deletes the rows with
 *       key ≡ j (mod {@link #MUTATE_STEPS}) when j is even, and updates their column s to
 *       "u&lt;j&gt;" (delete + insert) when j is odd.
 * </ul>
 */
public final class CrashWorker {
    static final int LOAD_BATCH = 300;
    static final int MUTATE_ROWS = 2000;
    static final int MUTATE_STEPS = 60;
    static final StorageOptions OPTIONS = StorageOptions.defaults().withSegmentRows(500);

    private CrashWorker() {
    }

    public static void main(String[] args) {
        boolean load = args[0].equals("load");
        try (BufferAllocator root = new RootAllocator(); Catalog catalog = Catalog.open(Path.of(args[1]), root, OPTIONS)) {
            Table t = catalog.create("t", DurableCatalogTest.ALL_TYPES, true);
            System.out.println("ready");
            System.out.flush();
            try (BufferAllocator a = root.newChildAllocator("worker", 0, Long.MAX_VALUE)) {
                int n = load ? (int) (t.rowCount() / LOAD_BATCH) : mutateStepsDone(t.snapshot(), a);
                for (; load || n < MUTATE_STEPS; n++) {
                    if (load) {
                        DurableCatalogTest.append(t, (long) n * LOAD_BATCH, (long) (n + 1) * LOAD_BATCH, 128, a);
                    } else {
                        mutate(catalog, t, n, a);
                    }
                    System.out.println("committed " + (n + 1));
                    System.out.flush();
                }
            }
        }
    }

    private static void mutate(Catalog catalog, Table t, int step, BufferAllocator a) {
        try (CatalogSnapshot snap = catalog.snapshot()) {
            TableSource before = snap.table("t").orElseThrow();
            List<Long> ids = DurableCatalogTest.rowIdsWhere(before, k -> k % MUTATE_STEPS == step, a);
            try (BatchStream rowIds = DurableCatalogTest.rowIdStream(ids, a)) {
                if (step % 2 == 0) {
                    t.delete(before, rowIds);
                } else {
                    List<List<Object>> updated = new ArrayList<>();
                    for (List<Object> r : TestData.read(before, a)) {
                        if ((long) r.get(0) % MUTATE_STEPS == step) {
                            updated.add(updated(r, step));
                        }
                    }
                    try (BatchStream rows = TestData.stream(t.schema(), updated, a)) {
                        t.replace(before, rowIds, rows);
                    }
                }
            }
        }
    }

    private static List<Object> updated(List<Object> row, int step) {
        List<Object> u = new ArrayList<>(row);
        u.set(7, "u" + step);
        return u;
    }

    /** Mutation steps whose effect the table shows (steps commit in order). */
    private static int mutateStepsDone(TableSource t, BufferAllocator a) {
        Map<Long, List<Object>> byKey = new TreeMap<>();
        TestData.read(t, a).forEach(r -> byKey.put((Long) r.get(0), r));
        int step = 0;
        while (step < MUTATE_STEPS && (step % 2 == 0 ? !byKey.containsKey((long) step)
                : ("u" + step).equals(byKey.get((long) step).get(7)))) {
            step++;
        }
        return step;
    }

    /** The rows after {@code steps} steps; mutate rows sorted by key, as {@link CrashTest} compares them. */
    static List<List<Object>> expected(boolean load, int steps) {
        if (load) {
            return DurableCatalogTest.allTypesRows(0, (long) steps * LOAD_BATCH);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> r : DurableCatalogTest.allTypesRows(0, MUTATE_ROWS)) {
            int residue = (int) ((long) r.get(0) % MUTATE_STEPS);
            if (residue >= steps) {
                rows.add(r);
            } else if (residue % 2 == 1) {
                rows.add(updated(r, residue));
            }
        }
        rows.sort(Comparator.comparing(r -> (Long) r.get(0)));
        return rows;
    }
}
