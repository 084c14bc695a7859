package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.sql.QueryPlans;
import io.warpdb.sql.Session;
import io.warpdb.sql.StatementResult;
import java.util.List;
import java.util.Optional;

/**
 * What a coordinator asks a shard to run of a query: the query's text and the fingerprint of one
 * subtree of its plan ({@link FragmentPlanner#fingerprint}). The shard plans the same text over
 * its own tables (the catalog is the same on every node) and runs its copy of that subtree over
 * its rows. As text: {@code fragment <length of the fingerprint>}, a newline, the fingerprint,
 * the query.
 */
record FragmentTicket(String fingerprint, String sql) {
    private static final String PREFIX = "fragment ";
    /** The message of the error a shard answers when its plan has no such subtree. */
    static final String MISSING = "the shard planned the query without the fragment";

    String text() {
        return PREFIX + fingerprint.length() + "\n" + fingerprint + sql;
    }

    /** The ticket {@code text} holds, or empty when it is plain SQL. */
    static Optional<FragmentTicket> parse(String text) {
        if (!text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int newline = text.indexOf('\n');
        int length = Integer.parseInt(text.substring(PREFIX.length(), newline));
        return Optional.of(new FragmentTicket(text.substring(newline + 1, newline + 1 + length), text.substring(newline + 1 + length)));
    }

    /** Runs this shard's copy of the fragment in {@code session}; fails with {@link #MISSING} when its plan has none. */
    StatementResult run(Session session) {
        PlanNode plan = QueryPlans.of(session, sql, List.of())
                .orElseThrow(() -> new WarpException(SqlState.INTERNAL_ERROR, "not a query: " + sql)).plan();
        PlanNode fragment = find(plan);
        if (fragment == null) {
            throw new WarpException(SqlState.INTERNAL_ERROR, MISSING);
        }
        return QueryPlans.run(session, fragment, fragment.schema());
    }

    private PlanNode find(PlanNode node) {
        if (FragmentPlanner.fingerprint(node).equals(fingerprint)) {
            return node;
        }
        for (PlanNode input : node.inputs()) {
            PlanNode found = find(input);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
