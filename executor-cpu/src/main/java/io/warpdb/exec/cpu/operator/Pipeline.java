package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.CpuExecutorProvider;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.ValueLayout;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Morsel-driven parallelism for one pipeline of a plan: a chain of filters, projections and join
 * probes (of any kind; see {@link HashJoinOperator}) down the
 * left inputs to one table scan. The chain is built {@link ExecContext#parallelism()} times, one
 * copy per worker; the copies pull their batches (morsels) from one shared scan
 * ({@link MorselSource}) and probe shared join builds, each built once from its own right input
 * (itself run as pipelines where it can be). The consumer is a {@link GatherOperator} or a
 * parallel {@link HashAggregateOperator}.
 *
 * <p>The copies own the shared scan and builds together: the last copy closed closes them. A
 * copy that fails aborts the scan, so the other copies end at their next pull.
 */
final class Pipeline {
    /**
     * Scans of fewer rows run on the calling thread alone: below this, starting workers costs
     * more than it saves, and small results keep their scan order.
     */
    static final long MIN_PARALLEL_ROWS = 150_000;

    private final ExecContext context;
    private final MorselSource morsels;
    private final Map<PlanNode, JoinBuild> builds = new IdentityHashMap<>();
    /** The joins whose builds filter the scanned rows by key (see {@link JoinKeyFilter}). */
    private final List<JoinKeyFilter.KeyFilter> keyFilters = new ArrayList<>();
    private final AtomicInteger openCopies = new AtomicInteger();

    private Pipeline(PlanNode root, ScanNode scan, ExecContext context) {
        this.context = context;
        this.morsels = new MorselSource(scan.schema(), scan.table().scanParts(scan.columns(), scan.predicates(), context.allocator()));
        try {
            for (PlanNode node = root; !(node instanceof ScanNode); node = node.inputs().get(0)) {
                if (node instanceof JoinNode join) {
                    JoinBuild build = new JoinBuild(join, Operators.input(join.right(), context), context);
                    builds.put(join, build);
                    int column = filterableKeyColumn(join);
                    if (column >= 0) {
                        keyFilters.add(new JoinKeyFilter.KeyFilter(column, build));
                    }
                }
            }
        } catch (RuntimeException e) {
            closeShared();
            throw e;
        }
    }

    /**
     * The pipeline ending at {@code root}, when it is one and worth running in parallel: the
     * context allows more than one thread and the scan has at least {@link #MIN_PARALLEL_ROWS}
     * rows. Null otherwise.
     */
    static Pipeline of(PlanNode root, ExecContext context) {
        if (context.parallelism() < 2) {
            return null;
        }
        ScanNode scan = drivingScan(root, context);
        if (scan == null || scan.table().rowCount() < MIN_PARALLEL_ROWS) {
            return null;
        }
        return new Pipeline(root, scan, context);
    }

    /** The scan at the end of the chain from {@code node} down, or null when the chain breaks or leaves this executor. */
    private static ScanNode drivingScan(PlanNode node, ExecContext context) {
        String placed = context.executorFor(node);
        if (placed != null && !placed.equals(CpuExecutorProvider.NAME)) {
            return null;
        }
        if (node instanceof ScanNode scan) {
            return scan;
        }
        if (node instanceof FilterNode || node instanceof ProjectNode) {
            return drivingScan(node.inputs().get(0), context);
        }
        if (node instanceof JoinNode join && !join.buildLeft()) {
            return drivingScan(join.left(), context);
        }
        return null;
    }

    /**
     * The pipeline ending at {@code root} (as {@link #of} gives it) that streams past
     * {@code index}, built over {@code indexSchema}'s {@code indexKeys}: its scan drops the rows
     * whose {@code keys} (columns of {@code root}) the index cannot match, where
     * {@link #filterableKeyColumn} allows. Null when {@code root} is no pipeline worth running in parallel.
     */
    static Pipeline probing(PlanNode root, List<Integer> keys, Schema indexSchema, List<Integer> indexKeys, JoinBuild index,
            ExecContext context) {
        Pipeline pipeline = of(root, context);
        int column = pipeline == null ? -1 : filterableKeyColumn(root, keys, indexSchema, indexKeys);
        if (column >= 0) {
            pipeline.keyFilters.add(new JoinKeyFilter.KeyFilter(column, index));
        }
        return pipeline;
    }

    /** The scan column holding the probe key of a join of this chain that drops unmatched rows (INNER, SEMI); else -1. */
    private static int filterableKeyColumn(JoinNode join) {
        if (join.kind() != JoinKind.INNER && join.kind() != JoinKind.SEMI) {
            return -1;
        }
        return filterableKeyColumn(join.left(), join.leftKeys(), join.right().schema(), join.rightKeys());
    }

    /**
     * The scan column holding the one key ({@code keys}, columns of {@code node}'s output) when it
     * is compared as stored with the build's key ({@link KeyEncoder#joinsAsStored}; a fixed-width
     * number or date, as {@link JoinKeyFilter} reads it) and reaches {@code node} from the
     * scan unchanged; else -1.
     */
    private static int filterableKeyColumn(PlanNode node, List<Integer> keys, Schema buildSchema, List<Integer> buildKeys) {
        if (keys.size() != 1) {
            return -1;
        }
        int column = keys.get(0);
        DataType type = node.schema().type(column);
        if (!KeyEncoder.joinsAsStored(type, buildSchema.type(buildKeys.get(0))) || ValueLayout.of(type) == ValueLayout.BIT) {
            return -1;
        }
        while (!(node instanceof ScanNode)) {
            if (node instanceof ProjectNode project) {
                if (!(project.exprs().get(column) instanceof ColumnRef ref)) {
                    return -1;
                }
                column = ref.index();
            } else if (node instanceof JoinNode below && column >= below.left().schema().size()) {
                return -1; // a column of the lower join's build side
            }
            node = node.inputs().get(0);
        }
        return column;
    }

    /** One copy of the chain per worker; to be called once. */
    List<BatchStream> copies(PlanNode root) {
        int count = context.parallelism();
        List<BatchStream> copies = new ArrayList<>(count);
        openCopies.set(count);
        for (int i = 0; i < count; i++) {
            try {
                copies.add(new Copy(copy(root)));
            } catch (RuntimeException e) {
                // Copies not made yet will never be closed: release them now, then the made ones.
                for (int missing = i; missing < count; missing++) {
                    release();
                }
                BatchRows.closeAll(copies);
                throw e;
            }
        }
        return copies;
    }

    private BatchStream copy(PlanNode node) {
        return copy(node, keyFilters.isEmpty() ? null : new JoinKeyFilter(keyFilters));
    }

    /**
     * The copy of the chain from {@code node} down; {@code keys} (may be null), the copy's key
     * filter, is run by the operator that reads the scan where it can, else over the scan.
     */
    private BatchStream copy(PlanNode node, JoinKeyFilter keys) {
        if (node instanceof ScanNode scan) {
            BatchStream scanned = Operators.metered(node, new ScanOperator(scan, morsels.view(), context), context);
            return keys == null ? scanned : new JoinKeyFilterOperator(scanned, keys, context);
        }
        if (node instanceof JoinNode join) {
            return copyJoin(join, keys);
        }
        FilterNode fused = node instanceof ProjectNode project ? Operators.fusedFilter(project, context) : null;
        PlanNode below = fused != null ? fused.input() : node.inputs().get(0);
        JoinKeyFilter runHere = below instanceof ScanNode ? keys : null;
        BatchStream input = copy(below, runHere == null ? keys : null);
        try {
            BatchStream operator = node instanceof FilterNode filter ? new FilterOperator(filter, input, runHere, context)
                    : new ProjectOperator((ProjectNode) node, input, fused, runHere, context);
            return Operators.metered(node, operator, context);
        } catch (RuntimeException e) {
            input.close();
            throw e;
        }
    }

    /**
     * A join's copy, which runs the projection of columns and the filter right below it itself
     * (see {@link HashJoinOperator}), and the key filter where they read the scan.
     */
    private BatchStream copyJoin(JoinNode join, JoinKeyFilter keys) {
        PlanNode below = join.left();
        // Every node of the chain is placed here (see drivingScan).
        ProjectNode projection = below instanceof ProjectNode p && p.exprs().stream().allMatch(ColumnRef.class::isInstance) ? p : null;
        below = projection != null ? projection.input() : below;
        FilterNode filter = below instanceof FilterNode f ? f : null;
        below = filter != null ? filter.input() : below;
        JoinKeyFilter runHere = below instanceof ScanNode ? keys : null;
        BatchStream input = copy(below, runHere == null ? keys : null);
        try {
            FusedFilter fused = filter == null && runHere == null ? null : new FusedFilter(filter, runHere, context);
            return Operators.metered(join, new HashJoinOperator(join, input, projection, fused, builds.get(join), false, context),
                    context);
        } catch (RuntimeException e) {
            input.close();
            throw e;
        }
    }

    /** Stops handing out morsels: every copy ends at its next pull. */
    void abort() {
        morsels.abort();
    }

    private void release() {
        if (openCopies.decrementAndGet() == 0) {
            closeShared();
        }
    }

    private void closeShared() {
        List<AutoCloseable> shared = new ArrayList<>(builds.values());
        shared.add(morsels);
        BatchRows.closeAll(shared);
    }

    /** A worker's copy: aborts the pipeline when it fails, and releases the shared parts when closed. */
    private final class Copy implements BatchStream {
        private final BatchStream chain;
        private boolean closed;

        Copy(BatchStream chain) {
            this.chain = chain;
        }

        @Override
        public Schema schema() {
            return chain.schema();
        }

        @Override
        public Batch next() {
            try {
                return chain.next();
            } catch (RuntimeException | Error e) {
                abort();
                throw e;
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                chain.close();
            } finally {
                release();
            }
        }
    }
}
