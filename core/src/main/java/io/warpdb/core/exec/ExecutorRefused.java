package io.warpdb.core.exec;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.PlanNode;

/**
 * An executor gives up on a node placed on it, e.g. because it ran out of device memory, before
 * yielding any batch of that node; {@link ExecContext} then runs the node on the fallback that
 * placement gave it. The reason is what EXPLAIN ANALYZE notes on the node; the SQLSTATE is what a
 * user sees when the node has no fallback.
 */
public final class ExecutorRefused extends WarpException {
    private static final long serialVersionUID = 1L;
    private final transient PlanNode node;

    public ExecutorRefused(PlanNode node, SqlState state, String reason, Throwable cause) {
        super(state, reason, cause);
        this.node = node;
    }

    /** The node refused (by identity: equal subtrees are distinct nodes). */
    public PlanNode node() {
        return node;
    }

    /** Why, e.g. {@code gpu out of memory (...)}. */
    public String reason() {
        return getMessage();
    }
}
