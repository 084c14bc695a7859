package io.warpdb.sql.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Pulls conjuncts common to every branch of an OR out of filter and join conditions:
 * {@code (a = b AND x) OR (a = b AND y)} becomes {@code a = b AND (x OR y)}, which gives the
 * join an equality key instead of a nested loop (TPC-H Q19).
 */
final class FactorPuller extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    FactorPuller(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        LogicalFilter f = (LogicalFilter) super.visit(filter);
        RexNode pulled = RexUtil.pullFactors(rexBuilder, f.getCondition());
        return pulled.equals(f.getCondition()) ? f : f.copy(f.getTraitSet(), f.getInput(), pulled);
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin j = (LogicalJoin) super.visit(join);
        RexNode pulled = RexUtil.pullFactors(rexBuilder, j.getCondition());
        return pulled.equals(j.getCondition()) ? j
                : j.copy(j.getTraitSet(), pulled, j.getLeft(), j.getRight(), j.getJoinType(), j.isSemiJoinDone());
    }
}
