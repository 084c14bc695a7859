package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableIntList;

/**
 * Semi-join reduction of a grouped aggregate that an inner join filters by its group keys:
 * {@code Aggregate(k; R) JOIN S ON k = s} becomes {@code Aggregate(k; R SEMI JOIN S ON k = s)
 * JOIN S ON k = s} when S is expected to keep only a small share of the groups. The aggregate
 * then reads only the rows of groups that survive the join, instead of building every group
 * first: a decorrelated scalar sub-query aggregates all of lineitem per part (TPC-H Q17) or all
 * of partsupp per part (Q2) for the few hundred parts the outer query keeps. The groups that
 * remain are the same, with the same rows, so the result is unchanged; S is computed twice.
 *
 * <p>A projection between the aggregate and the join (unnesting leaves one over a scalar
 * sub-query's aggregate) is looked through when it passes the group keys on unchanged.
 *
 * <p>When the filter joins the aggregate's partner instead ({@code (Aggregate JOIN T) JOIN S},
 * sides in either order, S on T's columns only, as Q20's parts named 'forest%' on partsupp), the
 * joins are first reassociated into {@code Aggregate JOIN (T JOIN S)} if {@code T JOIN S} is
 * expected small, under a projection that keeps the columns' order.
 */
final class AggregateSemiJoinReduction extends RelShuttleImpl {
    /** The join must be expected to keep at most this share of the aggregate's groups. */
    private static final double MAX_KEPT_SHARE = 0.1;

    private final RexBuilder rexBuilder;

    AggregateSemiJoinReduction(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin visited = (LogicalJoin) super.visit(join);
        RelNode moved = reassociated(visited);
        if (moved instanceof LogicalProject order && order.getInput() instanceof LogicalJoin inner) {
            return order.copy(order.getTraitSet(), List.of(reducedJoin(inner)));
        }
        return reducedJoin(visited);
    }

    /** The inner join with its aggregate side semi-joined to the other side when that pays; else {@code j} itself. */
    private LogicalJoin reducedJoin(LogicalJoin j) {
        if (j.getJoinType() != JoinRelType.INNER) {
            return j;
        }
        JoinInfo info = JoinInfo.createWithStrictEquality(j.getLeft(), j.getRight(), j.getCondition());
        if (info.leftKeys.isEmpty()) {
            return j;
        }
        RelNode left = reduced(j.getLeft(), info.leftKeys, j.getRight(), info.rightKeys);
        RelNode right = left != j.getLeft() ? j.getRight() : reduced(j.getRight(), info.rightKeys, j.getLeft(), info.leftKeys);
        if (left == j.getLeft() && right == j.getRight()) {
            return j;
        }
        return j.copy(j.getTraitSet(), j.getCondition(), left, right, j.getJoinType(), j.isSemiJoinDone());
    }

    /**
     * {@code S JOIN (A JOIN T)}, with the sides of either join in either order, as {@code A JOIN
     * (T JOIN S)} under a projection that restores the columns' order, when A is an aggregate, the
     * outer condition reads only T and S, and {@code T JOIN S} keeps a small share of A's groups;
     * else {@code join} itself.
     */
    private RelNode reassociated(LogicalJoin join) {
        if (join.getJoinType() != JoinRelType.INNER) {
            return join;
        }
        for (boolean innerOnLeft : new boolean[] {true, false}) {
            RelNode innerSide = innerOnLeft ? join.getLeft() : join.getRight();
            if (!(innerSide instanceof LogicalJoin inner) || inner.getJoinType() != JoinRelType.INNER) {
                continue;
            }
            for (boolean aggregateOnLeft : new boolean[] {true, false}) {
                RelNode aggregate = aggregateOnLeft ? inner.getLeft() : inner.getRight();
                if (isAggregate(aggregate)) {
                    RelNode moved = reassociated(join, innerOnLeft, inner, aggregateOnLeft);
                    if (moved != null) {
                        return moved;
                    }
                }
            }
        }
        return join;
    }

    /** One orientation of {@link #reassociated(LogicalJoin)}; null when its terms do not hold. */
    private RelNode reassociated(LogicalJoin join, boolean innerOnLeft, LogicalJoin inner, boolean aggregateOnLeft) {
        RelNode aggregate = aggregateOnLeft ? inner.getLeft() : inner.getRight();
        RelNode partner = aggregateOnLeft ? inner.getRight() : inner.getLeft();
        RelNode filter = innerOnLeft ? join.getRight() : join.getLeft();
        int a = aggregate.getRowType().getFieldCount();
        int t = partner.getRowType().getFieldCount();
        int f = filter.getRowType().getFieldCount();
        // Where each column of the inner join and of the outer join goes in A, T, S order.
        int[] innerTo = new int[a + t];
        for (int i = 0; i < a + t; i++) {
            boolean ofFirst = i < inner.getLeft().getRowType().getFieldCount();
            int within = ofFirst ? i : i - inner.getLeft().getRowType().getFieldCount();
            innerTo[i] = ofFirst == aggregateOnLeft ? within : a + within;
        }
        int[] outerTo = new int[a + t + f];
        for (int i = 0; i < outerTo.length; i++) {
            int innerStart = innerOnLeft ? 0 : f;
            outerTo[i] = i >= innerStart && i < innerStart + a + t ? innerTo[i - innerStart] : a + t + (innerOnLeft ? i - (a + t) : i);
        }
        RexNode outerCondition = moved(join.getCondition(), outerTo);
        org.apache.calcite.util.ImmutableBitSet used = org.apache.calcite.plan.RelOptUtil.InputFinder.bits(outerCondition);
        if (used.isEmpty() || used.nextSetBit(0) < a) {
            return null;
        }
        RelNode partnerJoin = LogicalJoin.create(partner, filter, List.of(), RexUtil.shift(outerCondition, -a), Set.of(),
                JoinRelType.INNER);
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        Double groups = mq.getRowCount(aggregate);
        Double kept = mq.getRowCount(partnerJoin);
        if (groups == null || kept == null || kept > groups * MAX_KEPT_SHARE) {
            return null;
        }
        LogicalJoin moved = LogicalJoin.create(aggregate, partnerJoin, List.of(), moved(inner.getCondition(), innerTo), Set.of(),
                JoinRelType.INNER);
        List<RexNode> columns = new ArrayList<>(outerTo.length);
        for (int to : outerTo) {
            columns.add(rexBuilder.makeInputRef(moved, to));
        }
        return LogicalProject.create(moved, List.of(), columns, join.getRowType().getFieldNames(), Set.of());
    }

    /** {@code condition} with input i read from column {@code to[i]}. */
    private static RexNode moved(RexNode condition, int[] to) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(to[ref.getIndex()], ref.getType());
            }
        });
    }

    /**
     * {@code side} with its aggregate's input semi-joined to {@code filter} when {@code side} is
     * an aggregate that joins on some of its group columns and {@code filter} is small; else
     * {@code side} itself. Keys on aggregated values (Q2's {@code ps_supplycost = MIN(...)}) stay
     * for the join above: the semi-join on the group keys alone keeps every group that can match.
     */
    private RelNode reduced(RelNode side, ImmutableIntList keys, RelNode filter, ImmutableIntList filterKeys) {
        if (side instanceof LogicalProject project && project.getInput() instanceof LogicalAggregate) {
            return reducedBelow(project, keys, filter, filterKeys);
        }
        if (!(side instanceof LogicalAggregate aggregate) || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return side;
        }
        List<Integer> groupColumns = aggregate.getGroupSet().asList();
        List<Integer> groupKeys = new ArrayList<>();
        List<Integer> groupFilterKeys = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) < groupColumns.size()) {
                groupKeys.add(keys.get(i));
                groupFilterKeys.add(filterKeys.get(i));
            }
        }
        if (groupKeys.isEmpty()) {
            return side;
        }
        RelMetadataQuery mq = aggregate.getCluster().getMetadataQuery();
        Double groups = mq.getRowCount(aggregate);
        Double kept = mq.getRowCount(filter);
        if (groups == null || kept == null || kept > groups * MAX_KEPT_SHARE) {
            return side;
        }
        RelNode input = aggregate.getInput();
        int inputCount = input.getRowType().getFieldCount();
        List<RexNode> equalities = new ArrayList<>();
        for (int i = 0; i < groupKeys.size(); i++) {
            int inputColumn = groupColumns.get(groupKeys.get(i));
            int filterColumn = groupFilterKeys.get(i);
            equalities.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                    rexBuilder.makeInputRef(input.getRowType().getFieldList().get(inputColumn).getType(), inputColumn),
                    rexBuilder.makeInputRef(filter.getRowType().getFieldList().get(filterColumn).getType(),
                            inputCount + filterColumn)));
        }
        RelNode semi = LogicalJoin.create(input, filter, List.of(), RexUtil.composeConjunction(rexBuilder, equalities), Set.of(),
                JoinRelType.SEMI);
        return aggregate.copy(aggregate.getTraitSet(), List.of(semi));
    }

    /**
     * {@code project} (over an aggregate, as unnesting leaves a scalar sub-query: the aggregated
     * value computed on, the group keys passed through) with the aggregate below reduced by the
     * join keys that are plain references to its columns.
     */
    private RelNode reducedBelow(LogicalProject project, ImmutableIntList keys, RelNode filter, ImmutableIntList filterKeys) {
        List<Integer> aggregateKeys = new ArrayList<>();
        List<Integer> aggregateFilterKeys = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (project.getProjects().get(keys.get(i)) instanceof RexInputRef ref) {
                aggregateKeys.add(ref.getIndex());
                aggregateFilterKeys.add(filterKeys.get(i));
            }
        }
        RelNode aggregate = project.getInput();
        RelNode reduced = reduced(aggregate, ImmutableIntList.copyOf(aggregateKeys), filter, ImmutableIntList.copyOf(aggregateFilterKeys));
        return reduced == aggregate ? project : project.copy(project.getTraitSet(), List.of(reduced));
    }

    /** An aggregate, or a projection of one. */
    private static boolean isAggregate(RelNode node) {
        return node instanceof LogicalAggregate || node instanceof LogicalProject p && p.getInput() instanceof LogicalAggregate;
    }
}
