package io.warpdb.sql.calcite;

import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
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
 * Join selectivity for the join-order search: equalities between left and right columns keep
 * 1 / max(distinct values of the key columns on either side) of the cross product (Calcite's default guess,
 * 0.15 per equality, makes a join on a 25-valued nation key look as good as one on a primary
 * key); other conjuncts keep Calcite's guesses, except LIKE (see {@link #LIKE_SELECTIVITY}).
 */
final class JoinSelectivity extends RelMdSelectivity {
    /** WarpDB's metadata handlers in front of Calcite's defaults. */
    static final RelMetadataProvider PROVIDER = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(new JoinSelectivity(), BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new NullFreePredicates(), BuiltInMetadata.Predicates.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(new FullJoinMaxRowCount(), BuiltInMetadata.MaxRowCount.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    /**
     * The share of rows a LIKE keeps. Calcite guesses 0.25 for any predicate it does not know,
     * which makes {@code p_name LIKE '%green%'} (5 % of the parts) look weaker than a join on a
     * composite key and puts that join first in TPC-H Q9.
     */
    private static final double LIKE_SELECTIVITY = 0.05;

    /**
     * Predicates over a table or anything without a more specific rule. Range conditions on a
     * column whose range storage knows ({@link ColumnRanges}) keep the share of that range they
     * cover: TPC-H Q10's three months of orders are 4 % of them, not Calcite's 25 % for two
     * comparisons, which decides the side a join builds on.
     */
    @Override
    public Double getSelectivity(RelNode rel, RelMetadataQuery mq, RexNode predicate) {
        if (predicate == null) {
            return super.getSelectivity(rel, mq, predicate);
        }
        ColumnRanges ranges = new ColumnRanges(rel, mq);
        double selectivity = 1;
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            if (!ranges.add(conjunct)) {
                selectivity *= guess(conjunct);
            }
        }
        return selectivity * ranges.selectivity();
    }

    private static double guess(RexNode conjunct) {
        return conjunct.getKind() == SqlKind.LIKE ? LIKE_SELECTIVITY : RelMdUtil.guessSelectivity(conjunct);
    }

    @Override
    public Double getSelectivity(Join join, RelMetadataQuery mq, RexNode predicate) {
        if (join.isSemiJoin() || predicate == null) {
            return super.getSelectivity(join, mq, predicate);
        }
        int leftCount = join.getLeft().getRowType().getFieldCount();
        ImmutableBitSet.Builder leftKeys = ImmutableBitSet.builder();
        ImmutableBitSet.Builder rightKeys = ImmutableBitSet.builder();
        double selectivity = 1;
        for (RexNode conjunct : RelOptUtil.conjunctions(predicate)) {
            if (!addEquality(conjunct, leftCount, leftKeys, rightKeys)) {
                selectivity *= guess(conjunct);
            }
        }
        ImmutableBitSet left = leftKeys.build();
        if (left.isEmpty()) {
            return selectivity;
        }
        // All key columns together: a composite key (l_partkey, l_suppkey) is one condition, not
        // two independent ones whose selectivities multiply.
        Double leftDistinct = mq.getDistinctRowCount(join.getLeft(), left, null);
        Double rightDistinct = mq.getDistinctRowCount(join.getRight(), rightKeys.build(), null);
        if (leftDistinct == null || rightDistinct == null) {
            return selectivity * RelMdUtil.guessSelectivity(predicate);
        }
        return selectivity / Math.max(1, Math.max(leftDistinct, rightDistinct));
    }

    /** Records {@code left = right} between a left and a right column; false for anything else. */
    private static boolean addEquality(RexNode conjunct, int leftCount, ImmutableBitSet.Builder leftKeys,
            ImmutableBitSet.Builder rightKeys) {
        if (!(conjunct instanceof RexCall call) || call.getKind() != SqlKind.EQUALS
                || !(call.getOperands().get(0) instanceof RexInputRef a) || !(call.getOperands().get(1) instanceof RexInputRef b)) {
            return false;
        }
        int left = Math.min(a.getIndex(), b.getIndex());
        int right = Math.max(a.getIndex(), b.getIndex());
        if (left >= leftCount || right < leftCount) {
            return false;
        }
        leftKeys.set(left);
        rightKeys.set(right - leftCount);
        return true;
    }
}
