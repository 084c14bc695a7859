package io.warpdb.core.plan;

import java.util.HashMap;
import java.util.Map;

/**
 * Finds the subplans a plan computes more than once and makes them {@link SharedNode}s, so that
 * each is computed once per execution: a CTE or view that a query reads twice, the same join in
 * a query and in its subquery (TPC-H q11, q15; TPC-DS q04's {@code year_total}, read 6 times).
 * Subplans match when they are equal (plan nodes are records, compared in depth); the largest
 * repeated ones are shared, and inside one, a smaller subplan that is also used elsewhere. A
 * subplan that is only scans, constants, filters and projections is cheaper to compute again
 * than to keep, and is not shared. Every use of one subplan becomes the same {@code SharedNode}.
 */
public final class SharedSubplans {
    private final Map<PlanNode, Integer> uses = new HashMap<>();
    private final Map<PlanNode, SharedNode> shared = new HashMap<>();
    private int lastId;

    private SharedSubplans() {
    }

    /** {@code plan} with each subplan that it computes more than once (and that is worth keeping) shared. */
    public static PlanNode share(PlanNode plan) {
        SharedSubplans rewrite = new SharedSubplans();
        rewrite.count(plan);
        return rewrite.rewrite(plan, 1);
    }

    private void count(PlanNode node) {
        uses.merge(node, 1, Integer::sum);
        node.inputs().forEach(this::count);
    }

    /**
     * {@code node} rewritten where it is used {@code enclosingUses} times as part of the subplan
     * around it: it is shared when it is used more often than that, i.e. elsewhere too.
     */
    private PlanNode rewrite(PlanNode node, int enclosingUses) {
        if (node instanceof SharedNode) {
            return node;
        }
        int used = uses.get(node);
        if (used > enclosingUses && worthKeeping(node)) {
            SharedNode known = shared.get(node);
            if (known == null) {
                int id = ++lastId;
                known = new SharedNode(id, rewriteInputs(node, used));
                shared.put(node, known);
            }
            return known;
        }
        return rewriteInputs(node, enclosingUses);
    }

    private PlanNode rewriteInputs(PlanNode node, int enclosingUses) {
        if (node.inputs().isEmpty()) {
            return node;
        }
        return node.withInputsIfChanged(node.inputs().stream().map(input -> rewrite(input, enclosingUses)).toList());
    }

    /** {@code plan} with every shared subplan computed where it is used, for planners that place plans themselves (a cluster's). */
    public static PlanNode unshare(PlanNode plan) {
        PlanNode node = plan instanceof SharedNode shared ? shared.input() : plan;
        if (node.inputs().isEmpty()) {
            return node;
        }
        return node.withInputs(node.inputs().stream().map(SharedSubplans::unshare).toList());
    }

    /** Whether computing {@code node} does more than read, filter and compute columns: it joins, aggregates, sorts, ... */
    static boolean worthKeeping(PlanNode node) {
        if (node instanceof SharedNode) {
            return false;
        }
        boolean streaming = node instanceof ScanNode || node instanceof ValuesNode || node instanceof FilterNode
                || node instanceof ProjectNode || node instanceof UnionNode;
        return !streaming || node.inputs().stream().anyMatch(SharedSubplans::worthKeeping);
    }
}
