package io.warpdb.core.exec;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exchange.ResidentRows;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.types.Schema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The state one query execution needs: the allocator every batch of the query comes from (the
 * query owns it and closes it after the last batch), the cancellation flag that operators
 * poll between batches, the executor each plan node is placed on and the one it falls back on
 * when that executor refuses it (see {@link ExecutorRefused}), and each node's statistics.
 *
 * <p>Plan nodes are records, so two equal subtrees are still different nodes: placement and
 * statistics are keyed by identity.
 *
 * <p>The context owns the results of the plan's shared subplans ({@link #shared}) and frees them
 * when closed, which the statement does at its end, also after an error or a cancel.
 */
public final class ExecContext implements AutoCloseable {
    private final BufferAllocator allocator;
    private final ExecutorRegistry registry;
    private final Map<PlanNode, String> placement;
    private final Map<PlanNode, String> fallbacks;
    private final Map<PlanNode, NodeStats> stats = Collections.synchronizedMap(new IdentityHashMap<>());
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final Map<String, SharedResult<?>> sharedResults = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile int parallelism = defaultParallelism();
    /** System.nanoTime() after which the query fails as timed out; 0 for no timeout. */
    private volatile long deadlineNanos;
    private volatile long timeoutMillis;

    /** A context without placement: the executor given the plan runs all of it. */
    public ExecContext(BufferAllocator allocator) {
        this(allocator, new ExecutorRegistry(List.of()), Map.of());
    }

    /** A context with placement and no fallbacks: a node its executor refuses fails the query. */
    public ExecContext(BufferAllocator allocator, ExecutorRegistry registry, Map<PlanNode, String> placement) {
        this(allocator, registry, placement, Map.of());
    }

    /**
     * A context whose {@code placement} maps plan nodes (by identity) to executor names; nodes
     * absent from it run on the executor that reached them. {@code fallbacks} maps nodes (by
     * identity) to the executor that runs them when their placed executor refuses them.
     */
    public ExecContext(BufferAllocator allocator, ExecutorRegistry registry, Map<PlanNode, String> placement,
            Map<PlanNode, String> fallbacks) {
        this.allocator = allocator;
        this.registry = registry;
        this.placement = identityCopy(placement);
        this.fallbacks = identityCopy(fallbacks);
    }

    private static Map<PlanNode, String> identityCopy(Map<PlanNode, String> executors) {
        IdentityHashMap<PlanNode, String> copy = new IdentityHashMap<>();
        copy.putAll(executors);
        return Collections.unmodifiableMap(copy);
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    /** The executor placed for {@code node}, or null when this context has no placement for it. */
    public String executorFor(PlanNode node) {
        return placement.get(node);
    }

    /**
     * Runs {@code node} on its placed executor, or when that executor refuses it, on its fallback
     * (see {@link #runRefused}); see {@link #runOn}.
     *
     * @throws IllegalStateException when the node has no placement
     */
    public BatchStream run(PlanNode node) {
        String executor = executorFor(node);
        if (executor == null) {
            throw new IllegalStateException("no executor is placed for " + node.describe());
        }
        try {
            return runOn(executor, node);
        } catch (ExecutorRefused refused) {
            if (refused.node() != node) {
                throw refused;
            }
            return runRefused(refused);
        }
    }

    /**
     * Runs the node an executor refused on the fallback placement gave it, and notes in the
     * node's statistics why ({@code <reason>: reran on <fallback>}). An executor that gives up on
     * a node inside its own part of the plan calls this for the node's result.
     *
     * @throws ExecutorRefused the refusal itself when the node has no fallback
     */
    public BatchStream runRefused(ExecutorRefused refused) {
        PlanNode node = refused.node();
        String fallback = fallbacks.get(node);
        if (fallback == null) {
            throw refused;
        }
        stats(node).note(refused.reason() + ": reran on " + fallback);
        return runOn(fallback, node);
    }

    /**
     * Runs {@code node} on the named executor whatever its placement (its inputs still follow
     * the placement); a refusal is not re-placed.
     *
     * <p>Statistics: providers record rows, wall time and executor for the nodes they run (see
     * {@link ExecutorProvider}). For one that does not, this measures the stream itself and, when
     * the stream is closed, fills in rows and wall time if the node's rows and wall time are
     * both still zero, and the executor if none was recorded; so nothing is counted twice.
     */
    public BatchStream runOn(String executor, PlanNode node) {
        ExecutorProvider provider = registry.require(executor);
        NodeStats measured = new NodeStats();
        return new FallbackMetering(new MeteredStream(provider.execute(node, this), measured), node, measured, provider.name());
    }

    /** The statistics of {@code node}, created on first use. */
    public NodeStats stats(PlanNode node) {
        return stats.computeIfAbsent(node, n -> new NodeStats());
    }

    /**
     * The result of the shared subplan {@code id} (see {@link io.warpdb.core.plan.SharedNode}) as
     * {@code executor} holds it: {@code compute} makes it on the first call, while concurrent
     * callers wait; later calls get the same object. The context owns it (callers take their own
     * references to what they hand on) and closes it when the context is closed. A computation
     * that fails leaves nothing behind, and the next call tries again.
     */
    public <T extends AutoCloseable> T shared(String executor, int id, Supplier<T> compute) {
        @SuppressWarnings("unchecked")
        SharedResult<T> result = (SharedResult<T>) sharedResults.computeIfAbsent(executor + "#" + id, key -> new SharedResult<>());
        return result.get(compute);
    }

    /** Frees the results of shared subplans; a shared result asked for afterwards fails the query as cancelled. */
    @Override
    public void close() {
        closed = true;
        RuntimeException failure = null;
        for (SharedResult<?> result : sharedResults.values()) {
            try {
                result.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A snapshot of the nodes that have statistics (an identity map). */
    public Map<PlanNode, NodeStats> allStats() {
        synchronized (stats) {
            IdentityHashMap<PlanNode, NodeStats> copy = new IdentityHashMap<>();
            copy.putAll(stats);
            return Collections.unmodifiableMap(copy);
        }
    }

    /**
     * The default degree of parallelism: the system property {@code warpdb.parallelism} when
     * set, else the number of processors.
     */
    public static int defaultParallelism() {
        Integer configured = Integer.getInteger("warpdb.parallelism");
        return configured != null && configured > 0 ? configured : Runtime.getRuntime().availableProcessors();
    }

    /** How many threads an executor may run this query's work on at once (at least 1). */
    public int parallelism() {
        return parallelism;
    }

    /** Sets {@link #parallelism()}; 1 runs everything on the calling thread. */
    public void setParallelism(int threads) {
        parallelism = requireValidParallelism(threads);
    }

    /** {@code threads} when it is a usable degree of parallelism; SQLSTATE 22023 below 1. */
    public static int requireValidParallelism(int threads) {
        if (threads < 1) {
            throw new WarpException(SqlState.INVALID_PARAMETER_VALUE, "parallelism must be at least 1, not " + threads);
        }
        return threads;
    }

    public void cancel() {
        cancelled.set(true);
    }

    /** Makes the query fail with SQLSTATE 57014 once it has run {@code millis} from now (0: never). */
    public void setTimeout(long millis) {
        timeoutMillis = millis;
        deadlineNanos = millis <= 0 ? 0 : Math.max(1, System.nanoTime() + millis * 1_000_000);
    }

    /** Throws SQLSTATE 57014 once the query has been cancelled or has run past its timeout. */
    public void checkCancelled() {
        if (cancelled.get()) {
            throw new WarpException(SqlState.QUERY_CANCELED, "query cancelled");
        }
        long deadline = deadlineNanos;
        if (deadline != 0 && System.nanoTime() - deadline > 0) {
            throw new WarpException(SqlState.QUERY_CANCELED, "query cancelled: it ran longer than its timeout of "
                    + timeoutMillis + " ms");
        }
    }

    /** One shared subplan's result: made once, under its own lock, so that readers wait for the one who makes it. */
    private final class SharedResult<T extends AutoCloseable> {
        private T value;

        synchronized T get(Supplier<T> compute) {
            if (closed) {
                throw new WarpException(SqlState.QUERY_CANCELED, "query cancelled: its execution was closed");
            }
            if (value == null) {
                value = compute.get();
            }
            return value;
        }

        /** Called after the context is marked closed, so no later {@link #get} makes a value again. */
        synchronized void close() {
            if (value != null) {
                try {
                    value.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new WarpException(SqlState.INTERNAL_ERROR, "closing a shared result failed: " + e, e);
                }
                value = null;
            }
        }
    }

    /** A stream run by {@link #runOn}: keeps its own measurement for a node its provider left unrecorded. */
    private final class FallbackMetering implements BatchStream {
        private final BatchStream metered;
        private final PlanNode node;
        private final NodeStats measured;
        private final String executor;

        FallbackMetering(BatchStream metered, PlanNode node, NodeStats measured, String executor) {
            this.metered = metered;
            this.node = node;
            this.measured = measured;
            this.executor = executor;
        }

        @Override
        public Schema schema() {
            return metered.schema();
        }

        @Override
        public Batch next() {
            return metered.next();
        }

        @Override
        public ResidentRows takeResident() {
            return metered.takeResident();
        }

        @Override
        public void close() {
            try {
                metered.close();
            } finally {
                NodeStats recorded = stats(node);
                if (recorded.rows() == 0 && recorded.wallNanos() == 0) {
                    recorded.addRows(measured.rows());
                    recorded.addWallNanos(measured.wallNanos());
                }
                if (recorded.executor() == null) {
                    recorded.setExecutor(executor);
                }
            }
        }
    }
}
