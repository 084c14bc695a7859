package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.types.Schema;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rex.RexNode;

/**
 * Splits the join condition into equality keys (strict SQL equality, which hash joins can use)
 * and a residual condition over the concatenated left and right columns. Executors build
 * their hash table on the right input, so an inner join whose right side is estimated larger
 * is turned around (and its columns put back in order by a projection).
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
        Schema schema = PlanTranslator.schemaOf(rel);
        RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
        Double leftRows = mq.getRowCount(rel.getLeft());
        Double rightRows = mq.getRowCount(rel.getRight());
        boolean estimated = !info.leftKeys.isEmpty() && leftRows != null && rightRows != null;
        if (kind == JoinKind.INNER && estimated && (rightRows > leftRows || rightStreamsMore(left, right, leftRows, rightRows))) {
            return new JoinNode(left, right, kind, info.leftKeys, info.rightKeys, residual, schema).swapped();
        }
        boolean buildLeft = !kind.outputsRight() && estimated && rightRows > leftRows * SEMI_BUILD_LEFT_RATIO;
        return new JoinNode(left, right, kind, info.leftKeys, info.rightKeys, residual, schema, buildLeft);
    }

    /**
     * How much larger than the left the right input of a SEMI or ANTI join must be expected to be
     * for the left rows to be indexed instead: streaming the right rows past a small index beats
     * indexing them, but the left rows must then be held until the right input ends.
     */
    private static final double SEMI_BUILD_LEFT_RATIO = 4;

    /**
     * Whether the right input is a join driven by a table much larger than the left input's, and
     * not estimated much smaller than the left: building on it would materialise the output of
     * a large pipeline that could stream instead (TPC-H Q5: customer against lineitem x orders x
     * supplier, estimates within a factor of 4 of each other, which join-key statistics cannot
     * settle; probing with the lineitem pipeline lets its scan drop rows by every build's keys).
     */
    private static boolean rightStreamsMore(PlanNode left, PlanNode right, double leftEstimate, double rightEstimate) {
        if (!(right instanceof JoinNode) && !(right instanceof ProjectNode p && p.input() instanceof JoinNode)) {
            return false;
        }
        long leftTable = drivingScanRows(left);
        long rightTable = drivingScanRows(right);
        return leftTable > 0 && rightTable > STREAMING_SCAN_RATIO * leftTable && rightEstimate * STREAMING_SCAN_RATIO >= leftEstimate;
    }

    /** How much larger the right input's driving table and how much smaller at most its estimate, for {@link #rightStreamsMore}. */
    private static final double STREAMING_SCAN_RATIO = 4;

    /** The rows of the table at the end of the chain of left inputs (through filters, projections, joins); -1 if none. */
    private static long drivingScanRows(PlanNode node) {
        while (node instanceof FilterNode || node instanceof ProjectNode || node instanceof JoinNode) {
            node = node.inputs().get(0);
        }
        return node instanceof ScanNode scan ? scan.table().rowCount() : -1;
    }
}
