package io.warpdb.sql.calcite;

import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMdSelectivity;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Join selectivity for the join-order search: an equality between a left and a right column
 * keeps 1 / max(distinct values of either side) of the cross product (Calcite's default guess,
 * 0.15 per equality, makes a join on a 25-valued nation key look as good as one on a primary
 * key); other conjuncts keep Calcite's guesses.
 */
final class JoinSelectivity extends RelMdSelectivity {
    /** WarpDB's metadata handlers in front of Calcite's defaults. */
    static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinSelectivity(), BuiltInMetadata.Selectivity.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    @Override
    public Double getSelectivity(Join join, RelMetadataQuery mq, RexNode predicate) {
        if (join.isSemiJoin() || predicate == null) {
            return super.getSelectivity(join, mq, predicate);
        }
        int leftCount = join.getLeft().getRowType().getFieldCount();
        double selectivity = 1;
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            Double equality = equalitySelectivity(join, mq, conjunct, leftCount);
            selectivity *= equality != null ? equality : RelMdUtil.guessSelectivity(conjunct);
        }
        return selectivity;
    }

    private static Double equalitySelectivity(Join join, RelMetadataQuery mq, RexNode conjunct, int leftCount) {
        if (!(conjunct instanceof RexCall call) || call.getKind() != SqlKind.EQUALS
                || !(call.getOperands().get(0) instanceof RexInputRef a) || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return null;
        }
        int left = Math.min(a.getIndex(), b.getIndex());
        int right = Math.max(a.getIndex(), b.getIndex());
        if (left >= leftCount || right < leftCount) {
            return null;
        }
        Double leftDistinct = mq.getDistinctRowCount(join.getLeft(), ImmutableBitSet.of(left), null);
        Double rightDistinct = mq.getDistinctRowCount(join.getRight(), ImmutableBitSet.of(right - leftCount), null);
        if (leftDistinct == null || rightDistinct == null) {
            return null;
        }
        return 1 / Math.max(1, Math.max(leftDistinct, rightDistinct));
    }
}
