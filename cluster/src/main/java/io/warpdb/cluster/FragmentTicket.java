package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.sql.PinnedStatistics;
import java.util.List;
import java.util.Optional;

/**
 * What a coordinator asks a shard to run of a query: the query's text, the fingerprint of one
 * subtree of its plan ({@link FragmentPlanner#fingerprint}), the subtrees of it whose rows come
 * from exchanges ({@code inputs}), where its rows go ({@code output}: null for back to the
 * caller), whether it is a partial aggregate (the shard runs {@link FragmentPlanner#shardHalf}),
 * whether the shard sends only its first rows of the sort with a limit above it ({@code topN},
 * {@link FragmentPlanner#shardTopN}) and
 * the executor setting of the coordinator's session ({@code auto}, {@code cpu}, {@code gpu}), so that
 * a query asked of the GPU runs on the shards' GPUs too. The shard plans the same text over its own
 * tables (the catalog is the same on every node) from the coordinator's {@code statistics} of the
 * tables its plan scans, so that it plans as the coordinator did ({@link PinnedStatistics}), turns
 * the joins the coordinator turned ({@code rotations}, {@link JoinRotation}), and runs its copy of that
 * subtree over its rows ({@link ShardFragment}). As text: {@code fragment } and the
 * ticket as JSON.
 */
record FragmentTicket(String fingerprint, String sql, List<Input> inputs, Output output, boolean partial, boolean topN, String executor,
        PinnedStatistics statistics, List<String> rotations) {
    private static final String KIND = "fragment";
    /** The message of the error a shard answers when its plan has no such subtree. */
    static final String MISSING = "the shard planned the query without the fragment";

    /**
     * The rows of exchange {@code exchange} replace the subtree at {@code path} (input positions from
     * the fragment's root), merged when they are a partial aggregate's groups ({@code partial});
     * {@code groups}: as its sender's {@link Output} says.
     */
    record Input(List<Integer> path, String exchange, List<Integer> groups, boolean partial) {
    }

    /**
     * The fragment's rows go to every shard under {@code exchange}: by the hash of the {@code keys}
     * columns, or all of them when there are none; straight to each shard when {@code groups} is
     * null, else by the two-level shuffle over those groups (each shard's, in shard order: {@link ShuffleRoute}).
     */
    record Output(String exchange, List<Integer> keys, List<Integer> groups) {
    }

    String text() {
        return TicketText.write(KIND, this);
    }

    /** The ticket {@code text} holds, or empty when it is plain SQL. */
    static Optional<FragmentTicket> parse(String text) {
        return TicketText.read(KIND, text, FragmentTicket.class);
    }

    /** This ticket's subtree of {@code plan}, the shard's plan of the query; fails with {@link #MISSING} when it has none. */
    PlanNode find(PlanNode plan) {
        PlanNode found = FragmentPlanner.first(plan, node -> FragmentPlanner.fingerprint(node).equals(fingerprint));
        if (found == null) {
            throw new WarpException(SqlState.INTERNAL_ERROR, MISSING);
        }
        return found;
    }
}
