package io.warpdb.cluster;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import java.util.List;
import java.util.Set;

/**
 * Turns {@code A JOIN (B JOIN C)} into {@code (A JOIN B) JOIN C} (inner joins without residuals,
 * the outer join's keys on B's columns alone): the same rows, in the same column order. The
 * cluster's planner asks for it where A is unique on its join key and lies with B on the shards
 * while B and C do not, so that the co-located join runs first and only its rows move to meet C
 * (TPC-H q18: the orders that pass the HAVING meet customer, instead of customer going to every
 * node to meet all of orders). The coordinator names the joins it turns by their {@link
 * FragmentPlanner#fingerprint} in the fragments' tickets, and every shard turns the same ones of its
 * plan, so that the fragments cut from the turned plan are found in every node's.
 */
final class JoinRotation {
    private JoinRotation() {
    }

    /** Whether {@code join} has the shape {@link #rotate} turns. */
    static boolean rotatable(PlanNode node) {
        if (!(node instanceof JoinNode outer) || outer.kind() != JoinKind.INNER || outer.residual() != null || outer.leftKeys().isEmpty()
                || !(outer.right() instanceof JoinNode inner) || inner.kind() != JoinKind.INNER || inner.residual() != null) {
            return false;
        }
        int middleWidth = inner.left().schema().size();
        return outer.rightKeys().stream().allMatch(k -> k < middleWidth);
    }

    /** {@code A JOIN (B JOIN C)} as {@code (A JOIN B) JOIN C}; {@code join} must be {@link #rotatable}. */
    static JoinNode rotate(JoinNode join) {
        JoinNode inner = (JoinNode) join.right();
        PlanNode a = join.left();
        PlanNode b = inner.left();
        JoinNode first = new JoinNode(a, b, JoinKind.INNER, join.leftKeys(), join.rightKeys(), null, a.schema().concat(b.schema()));
        int aWidth = a.schema().size();
        return new JoinNode(first, inner.right(), JoinKind.INNER, inner.leftKeys().stream().map(k -> k + aWidth).toList(),
                inner.rightKeys(), null, join.schema());
    }

    /**
     * {@code plan} with the joins whose fingerprints (of the subtrees as planned, before any turn)
     * are in {@code fingerprints} turned; the same plan when there are none.
     */
    static PlanNode apply(PlanNode plan, Set<String> fingerprints) {
        if (fingerprints.isEmpty() || plan.inputs().isEmpty()) {
            return plan;
        }
        boolean turn = fingerprints.contains(FragmentPlanner.fingerprint(plan));
        List<PlanNode> inputs = plan.inputs().stream().map(input -> apply(input, fingerprints)).toList();
        boolean same = true;
        for (int i = 0; i < inputs.size(); i++) {
            same &= inputs.get(i) == plan.inputs().get(i);
        }
        PlanNode rebuilt = same ? plan : plan.withInputs(inputs);
        return turn && rotatable(rebuilt) ? rotate((JoinNode) rebuilt) : rebuilt;
    }

    /** Whether {@code node}'s rows are unique on column {@code column}: a grouped aggregate's one key, under filters and projections. */
    static boolean uniqueOn(PlanNode node, int column) {
        if (node instanceof FilterNode filter) {
            return uniqueOn(filter.input(), column);
        }
        if (node instanceof ProjectNode project) {
            return project.exprs().get(column) instanceof ColumnRef ref && uniqueOn(project.input(), ref.index());
        }
        return node instanceof AggregateNode aggregate && aggregate.groupKeys().size() == 1 && column == 0;
    }
}
