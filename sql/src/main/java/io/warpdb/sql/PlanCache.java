package io.warpdb.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Schema;
import io.warpdb.sql.ParsedStatement.Explain;
import io.warpdb.storage.CatalogSnapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The plans of queries planned before, so that a query text run again (a dashboard refreshing,
 * a report re-run, a benchmark's repetitions) skips parsing, validation, Calcite's optimisation
 * and the translation to a core plan: 5 to 25 ms per TPC-H query, as much as executing the small
 * ones. A text found here is known to be a query (or an EXPLAIN of one), so it is not even
 * classified again: the entry keeps its EXPLAIN prefix's meaning.
 *
 * <p>An entry holds for one catalog version: every commit (DDL, load, DML, a view) makes a new
 * version, whose data and statistics may call for another plan, so older entries simply stop
 * matching and age out. It also holds for one list of parameter values only, as plans embed
 * them as literals. Plans are immutable; a hit rebinds their scans to the tables of the
 * statement's own snapshot, which keeps the files it reads alive until it is closed. Plans that
 * scan system tables (live counters, not part of any version) are not kept.
 */
final class PlanCache {
    /** Entries kept; plans are small (a few KB), and a workload repeats far fewer distinct texts. */
    private static final int CAPACITY = 512;

    /**
     * A query statement ready to run: its physical plan, the result's columns as the user named
     * them and what its EXPLAIN prefix asked for.
     */
    record Planned(PlanNode plan, Schema schema, Explain explain) {
    }

    /** {@code pinned}: the statistics the plan was made from where they were not its tables' own (null: their own). */
    private record Key(String sql, long catalogVersion, List<Object> parameters, PinnedStatistics pinned) {
    }

    private final Cache<Key, Planned> plans = Caffeine.newBuilder().maximumSize(CAPACITY).build();

    /** The plan of {@code sql} with these parameters in the snapshot's version, bound to its tables; null if none is kept. */
    Planned get(String sql, List<Object> parameters, CatalogSnapshot snapshot) {
        return get(sql, parameters, null, snapshot);
    }

    /** As {@link #get(String, List, CatalogSnapshot)}, for a plan made from {@code pinned} statistics ({@link PinnedStatistics}; null: none). */
    Planned get(String sql, List<Object> parameters, PinnedStatistics pinned, CatalogSnapshot snapshot) {
        Planned planned = plans.getIfPresent(key(sql, parameters, pinned, snapshot));
        return planned == null ? null
                : new Planned(SnapshotBinding.rebind(planned.plan(), snapshot), planned.schema(), planned.explain());
    }

    /** Keeps {@code planned} for {@code sql} with these parameters in the snapshot's version, unless it reads a system table. */
    void put(String sql, List<Object> parameters, PinnedStatistics pinned, CatalogSnapshot snapshot, Planned planned) {
        if (readsOnly(planned.plan(), snapshot)) {
            plans.put(key(sql, parameters, pinned, snapshot), planned);
        }
    }

    /** Entries kept now (for tests). */
    long size() {
        plans.cleanUp();
        return plans.estimatedSize();
    }

    private static Key key(String sql, List<Object> parameters, PinnedStatistics pinned, CatalogSnapshot snapshot) {
        // Parameters may be NULL, which List.copyOf refuses.
        return new Key(sql, snapshot.version(), Collections.unmodifiableList(new ArrayList<>(parameters)), pinned);
    }

    /** Whether every table the plan scans belongs to the snapshot's version. */
    private static boolean readsOnly(PlanNode node, CatalogSnapshot snapshot) {
        if (node instanceof ScanNode scan) {
            return snapshot.table(scan.table().name()).isPresent();
        }
        return node.inputs().stream().allMatch(input -> readsOnly(input, snapshot));
    }
}
