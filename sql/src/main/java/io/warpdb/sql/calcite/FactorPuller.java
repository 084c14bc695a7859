package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Rewrites ORs in filter and join conditions so that their parts reach single tables:
 * <ul>
 *   <li>conjuncts common to every branch are pulled out: {@code (a = b AND x) OR (a = b AND y)}
 *       becomes {@code a = b AND (x OR y)}, which gives the join an equality key instead of a
 *       nested loop (TPC-H Q19);</li>
 *   <li>a column that every branch restricts on its own also gets the OR of those restrictions
 *       as a conjunct of its own (implied, the OR stays): {@code (n1 = 'F' AND n2 = 'G') OR
 *       (n1 = 'G' AND n2 = 'F')} adds {@code n1 IN ('F', 'G')} and {@code n2 IN ('F', 'G')},
 *       which filters each nation before the joins (TPC-H Q7, and Q19's brands and sizes).</li>
 * </ul>
 */
final class FactorPuller extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    FactorPuller(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        LogicalFilter f = (LogicalFilter) super.visit(filter);
        RexNode pulled = rewrite(f.getCondition());
        return pulled.equals(f.getCondition()) ? f : f.copy(f.getTraitSet(), f.getInput(), pulled);
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin j = (LogicalJoin) super.visit(join);
        RexNode pulled = rewrite(j.getCondition());
        return pulled.equals(j.getCondition()) ? j
                : j.copy(j.getTraitSet(), pulled, j.getLeft(), j.getRight(), j.getJoinType(), j.isSemiJoinDone());
    }

    private RexNode rewrite(RexNode condition) {
        List<RexNode> conjuncts = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(RexUtil.pullFactors(rexBuilder, condition))) {
            conjuncts.add(conjunct);
            conjuncts.addAll(impliedPerColumn(conjunct));
        }
        return RexUtil.composeConjunction(rexBuilder, conjuncts);
    }

    /** For an OR: per column that every branch restricts alone, the OR of those restrictions. */
    private List<RexNode> impliedPerColumn(RexNode or) {
        List<RexNode> branches = RelOptUtil.disjunctions(or);
        if (branches.size() < 2) {
            return List.of();
        }
        // Column -> per branch, the conjuncts of that branch over this column alone.
        Map<Integer, List<List<RexNode>>> byColumn = new LinkedHashMap<>();
        for (int b = 0; b < branches.size(); b++) {
            for (RexNode conjunct : RelOptUtil.conjunctions(branches.get(b))) {
                ImmutableBitSet columns = RelOptUtil.InputFinder.bits(conjunct);
                if (columns.cardinality() != 1 || !RexUtil.isDeterministic(conjunct)) {
                    continue;
                }
                List<List<RexNode>> perBranch = byColumn.computeIfAbsent(columns.nth(0), c -> new ArrayList<>());
                while (perBranch.size() <= b) {
                    perBranch.add(new ArrayList<>());
                }
                perBranch.get(b).add(conjunct);
            }
        }
        List<RexNode> implied = new ArrayList<>();
        for (List<List<RexNode>> perBranch : byColumn.values()) {
            if (perBranch.size() == branches.size() && perBranch.stream().noneMatch(List::isEmpty)) {
                List<RexNode> disjuncts = perBranch.stream().map(c -> RexUtil.composeConjunction(rexBuilder, c)).toList();
                implied.add(RexUtil.composeDisjunction(rexBuilder, disjuncts));
            }
        }
        return implied;
    }
}
