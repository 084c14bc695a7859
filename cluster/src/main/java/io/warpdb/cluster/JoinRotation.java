package io.warpdb.cluster;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reorders two inner joins (without residuals) of three inputs: a join whose one input is itself a
 * join of a <em>middle</em> input M with a <em>partner</em> N, and whose other input is O, becomes M
 * joined with O first, then with N; the same rows, in the same column order (under a projection
 * where the new order of the inputs differs). M joins O on the outer join's keys that are M's
 * columns, and on those that are N's columns which the inner join equates with M's (an inner join's
 * matched rows hold equal keys); the rest join N. The cluster's planner asks for a turn where M lies
 * with O on the shards and not with N, so that the co-located join runs where its rows lie and only
 * its result moves ({@link FragmentPlanner#rotations}): TPC-H q18's orders (M) meet the orders that
 * pass the HAVING (O) before customer (N), and q09's green parts (M) meet partsupp (O) before
 * lineitem (N). The coordinator names the joins it turns, by {@link Turn} and
 * {@link FragmentPlanner#fingerprint}, in the fragments' tickets, and every shard turns the same
 * ones of its plan, so that the fragments cut from the turned plan are found in every node's.
 */
final class JoinRotation {
    /** Which input of the outer join is the inner join, and which input of that is the middle one. */
    record Turn(boolean innerOnLeft, boolean middleOnLeft) {
        static final List<Turn> ALL = List.of(new Turn(true, true), new Turn(true, false), new Turn(false, true), new Turn(false, false));

        /** What names this turn of the join whose fingerprint (as planned, before any turn) is {@code fingerprint}. */
        String name(String fingerprint) {
            return "inner " + (innerOnLeft ? "left" : "right") + ", middle " + (middleOnLeft ? "left" : "right") + " " + fingerprint;
        }
    }

    /**
     * A turned join: {@code plan} (the new joins, under a projection where needed) and the parts the
     * planner weighs: {@code first}, the middle input's join with the other one, and the inputs.
     */
    record Turned(PlanNode plan, JoinNode first, JoinNode inner, PlanNode middle, PlanNode partner, PlanNode other) {
    }

    private JoinRotation() {
    }

    /** {@code node} turned as {@code turn} says; empty when it is not two inner joins so placed, or M and O share no key. */
    static Optional<Turned> turned(PlanNode node, Turn turn) {
        if (!JoinOrder.plainInner(node) || !(node instanceof JoinNode outer)
                || !JoinOrder.plainInner(turn.innerOnLeft() ? outer.left() : outer.right())) {
            return Optional.empty();
        }
        JoinNode inner = (JoinNode) (turn.innerOnLeft() ? outer.left() : outer.right());
        PlanNode other = turn.innerOnLeft() ? outer.right() : outer.left();
        PlanNode middle = turn.middleOnLeft() ? inner.left() : inner.right();
        PlanNode partner = turn.middleOnLeft() ? inner.right() : inner.left();
        // every column by its place in the outer join's output
        int innerAt = turn.innerOnLeft() ? 0 : other.schema().size();
        int otherAt = turn.innerOnLeft() ? inner.schema().size() : 0;
        int middleAt = innerAt + (turn.middleOnLeft() ? 0 : inner.left().schema().size());
        int partnerAt = innerAt + (turn.middleOnLeft() ? inner.left().schema().size() : 0);
        List<int[]> innerPairs = new ArrayList<>(); // {middle's column, partner's column}
        for (int i = 0; i < inner.leftKeys().size(); i++) {
            int left = inner.leftKeys().get(i);
            int right = inner.rightKeys().get(i);
            innerPairs.add(turn.middleOnLeft() ? new int[] {left, right} : new int[] {right, left});
        }
        List<int[]> firstPairs = new ArrayList<>(); // {middle's column, other's column}
        List<int[]> partnerPairs = new ArrayList<>(); // {partner's column, other's column}
        int leftWidth = outer.left().schema().size();
        for (int i = 0; i < outer.leftKeys().size(); i++) {
            int a = outer.leftKeys().get(i);
            int b = leftWidth + outer.rightKeys().get(i);
            int innerColumn = (turn.innerOnLeft() ? a : b) - innerAt;
            int otherColumn = (turn.innerOnLeft() ? b : a) - otherAt;
            int column = innerAt + innerColumn;
            if (column >= middleAt && column < middleAt + middle.schema().size()) {
                firstPairs.add(new int[] {column - middleAt, otherColumn});
                continue;
            }
            int partnerColumn = column - partnerAt;
            int[] equated = innerPairs.stream().filter(p -> p[1] == partnerColumn).findFirst().orElse(null);
            if (equated != null && sameType(middle, equated[0], other, otherColumn)) {
                firstPairs.add(new int[] {equated[0], otherColumn});
            } else {
                partnerPairs.add(new int[] {partnerColumn, otherColumn});
            }
        }
        if (firstPairs.isEmpty()) {
            return Optional.empty();
        }
        // the inputs kept in their order where the new tree allows it: M and O, then N before or after them
        boolean middleFirst = middleAt < otherAt;
        JoinNode first = middleFirst ? join(middle, other, firstPairs) : join(other, middle, swap(firstPairs));
        int middleIn = middleFirst ? 0 : other.schema().size();
        int otherIn = middleFirst ? middle.schema().size() : 0;
        List<int[]> secondPairs = new ArrayList<>(); // {first's column, partner's column}
        innerPairs.forEach(p -> secondPairs.add(new int[] {middleIn + p[0], p[1]}));
        partnerPairs.forEach(p -> secondPairs.add(new int[] {otherIn + p[1], p[0]}));
        boolean partnerFirst = partnerAt < Math.min(middleAt, otherAt);
        JoinNode second = partnerFirst ? join(partner, first, swap(secondPairs)) : join(first, partner, secondPairs);
        // where each column of the outer join's output now lies
        int firstAt = partnerFirst ? partner.schema().size() : 0;
        int partnerNow = partnerFirst ? 0 : first.schema().size();
        int[] position = new int[outer.schema().size()];
        for (int column = 0; column < position.length; column++) {
            if (column >= middleAt && column < middleAt + middle.schema().size()) {
                position[column] = firstAt + middleIn + column - middleAt;
            } else if (column >= otherAt && column < otherAt + other.schema().size()) {
                position[column] = firstAt + otherIn + column - otherAt;
            } else {
                position[column] = partnerNow + column - partnerAt;
            }
        }
        return Optional.of(new Turned(JoinOrder.inOrder(second, position, outer.schema()), first, inner, middle, partner, other));
    }

    private static boolean sameType(PlanNode left, int leftColumn, PlanNode right, int rightColumn) {
        return left.schema().type(leftColumn).withNullable(true).equals(right.schema().type(rightColumn).withNullable(true));
    }

    /** An inner join of {@code left} and {@code right} on the pairs {left's column, right's column}. */
    private static JoinNode join(PlanNode left, PlanNode right, List<int[]> pairs) {
        Schema schema = left.schema().concat(right.schema());
        return new JoinNode(left, right, JoinKind.INNER, pairs.stream().map(p -> p[0]).toList(), pairs.stream().map(p -> p[1]).toList(), null,
                schema);
    }

    private static List<int[]> swap(List<int[]> pairs) {
        return pairs.stream().map(p -> new int[] {p[1], p[0]}).toList();
    }

    /**
     * {@code plan} with the joins {@code names} names ({@link Turn#name}, by fingerprints of the subtrees
     * as planned, before any turn) turned; the same plan when there are none.
     */
    static PlanNode apply(PlanNode plan, Set<String> names) {
        if (names.isEmpty() || plan.inputs().isEmpty()) {
            return plan;
        }
        String fingerprint = FragmentPlanner.fingerprint(plan);
        PlanNode rebuilt = plan.withInputsIfChanged(plan.inputs().stream().map(input -> apply(input, names)).toList());
        for (Turn turn : Turn.ALL) {
            if (names.contains(turn.name(fingerprint))) {
                Optional<Turned> turned = turned(rebuilt, turn);
                if (turned.isPresent()) {
                    return turned.get().plan();
                }
            }
        }
        return rebuilt;
    }

    /** Whether {@code node}'s rows are unique on column {@code column}: a grouped aggregate's one key, under filters and projections. */
    static boolean uniqueOn(PlanNode node, int column) {
        if (node instanceof FilterNode filter) {
            return uniqueOn(filter.input(), column);
        }
        if (node instanceof ProjectNode project) {
            return project.exprs().get(column) instanceof ColumnRef ref && uniqueOn(project.input(), ref.index());
        }
        return node instanceof AggregateNode aggregate && aggregate.groupKeys().size() == 1 && column == 0;
    }
}
