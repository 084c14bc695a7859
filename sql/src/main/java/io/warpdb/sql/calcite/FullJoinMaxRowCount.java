package io.warpdb.sql.calcite;

import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMdMaxRowCount;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The most rows a join can return, right for FULL joins. Calcite 1.42 answers left x right for
 * every join kind; a FULL join whose rows all fail to match returns left + right, more than that
 * when either side has one row. Two one-row inputs FULL JOINed on a false condition give two
 * rows, which Calcite counted as at most one and so dropped a DISTINCT above them as redundant
 * (found by the fuzzer).
 */
final class FullJoinMaxRowCount extends RelMdMaxRowCount {
    @Override
    public @Nullable Double getMaxRowCount(Join rel, RelMetadataQuery mq) {
        Double product = super.getMaxRowCount(rel, mq);
        if (product == null || rel.getJoinType() != JoinRelType.FULL) {
            return product;
        }
        Double left = mq.getMaxRowCount(rel.getLeft());
        Double right = mq.getMaxRowCount(rel.getRight());
        return left == null || right == null ? null : Math.max(product, left + right);
    }
}
