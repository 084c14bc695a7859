package io.warpdb.sql.calcite;

import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.RelMdPredicates;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Calcite's pulled-up predicates, except that conjuncts of a filter or join condition that are
 * NULL for every row ({@code x >= NULL}, {@code -CAST(NULL AS REAL) = x}) are left out. Calcite
 * asserts that no pulled-up predicate compares with a NULL literal (AssertionError "Comparison
 * with NULL in pulledUpPredicates" while the field trimmer or a rule asks for uniqueness), yet
 * the converter writes such comparisons as the query has them and Calcite's own simplifier makes
 * more inside rules (a CASE without a matching branch becomes NULL under a comparison). Leaving a
 * predicate out is always sound: predicates only help simplification and uniqueness checks.
 */
final class NullFreePredicates extends RelMdPredicates {
    @Override
    public RelOptPredicateList getPredicates(Filter filter, RelMetadataQuery mq) {
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        List<RexNode> conjuncts = RexUtil.retainDeterministic(RelOptUtil.conjunctions(filter.getCondition())).stream()
                .filter(c -> !isAlwaysNull(c))
                .toList();
        RelOptPredicateList input = mq.getPulledUpPredicates(filter.getInput());
        return input.union(rexBuilder, RelOptPredicateList.of(rexBuilder, conjuncts));
    }

    /** Inferred from the join condition without its always-NULL conjuncts. */
    @Override
    public RelOptPredicateList getPredicates(Join join, RelMetadataQuery mq) {
        List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getCondition());
        if (conjuncts.stream().noneMatch(NullFreePredicates::isAlwaysNull)) {
            return super.getPredicates(join, mq);
        }
        RexNode condition = RexUtil.composeConjunction(join.getCluster().getRexBuilder(),
                conjuncts.stream().filter(c -> !isAlwaysNull(c)).toList());
        return super.getPredicates(join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(), join.getJoinType(),
                join.isSemiJoinDone()), mq);
    }

    private static boolean isAlwaysNull(RexNode conjunct) {
        return Strong.isNull(conjunct, ImmutableBitSet.of());
    }
}
