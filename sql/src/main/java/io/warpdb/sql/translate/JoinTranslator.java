package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rex.RexNode;

/**
 * Splits the join condition into equality keys (strict SQL equality, which hash joins can use)
 * and a residual condition over the concatenated left and right columns.
 */
final class JoinTranslator implements NodeTranslator<Join> {
    @Override
    public PlanNode translate(Join rel, PlanTranslator translator) {
        JoinKind kind = switch (rel.getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case RIGHT -> JoinKind.RIGHT;
            case FULL -> JoinKind.FULL;
            case SEMI -> JoinKind.SEMI;
            case ANTI -> JoinKind.ANTI;
            default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, rel.getJoinType() + " join is not supported yet");
        };
        PlanNode left = translator.translate(rel.getLeft());
        PlanNode right = translator.translate(rel.getRight());
        JoinInfo info = JoinInfo.createWithStrictEquality(rel.getLeft(), rel.getRight(), rel.getCondition());
        RexNode remaining = info.getRemaining(rel.getCluster().getRexBuilder());
        Expr residual = remaining.isAlwaysTrue() ? null : translator.rex().translate(remaining);
        return new JoinNode(left, right, kind, info.leftKeys, info.rightKeys, residual, PlanTranslator.schemaOf(rel));
    }
}
