package io.warpdb.cluster;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SortNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Drops the columns a plan carries past the point where they are last read: each join's and
 * grouping's inputs keep only the columns read above them or by their keys and conditions (under a
 * projection where the input itself needs more, such as the keys of its own joins), and scans read
 * only those. The cluster prunes a plan after reordering its joins and before cutting it, so that
 * the rows a fragment sends carry only what their readers use (TPC-H q05's rows moved to customer:
 * 12 columns, of which 5 are read after); the coordinator and every shard prune alike.
 */
final class ColumnPruning {
    private ColumnPruning() {
    }

    /** {@code plan} with the same output columns, each subtree narrowed to what is read of it. */
    static PlanNode prune(PlanNode plan) {
        return prune(plan, all(plan)).node();
    }

    /** A narrowed subtree, and where each of the original's output columns went in it (-1: dropped). */
    private record Pruned(PlanNode node, int[] moved) {
    }

    private static BitSet all(PlanNode node) {
        BitSet columns = new BitSet();
        columns.set(0, node.schema().size());
        return columns;
    }

    private static Pruned same(PlanNode node) {
        int[] moved = new int[node.schema().size()];
        Arrays.setAll(moved, i -> i);
        return new Pruned(node, moved);
    }

    /** {@code node} keeping at least its output columns {@code used} (in their order), and maybe others. */
    private static Pruned prune(PlanNode node, BitSet used) {
        if (node instanceof ScanNode scan) {
            List<Integer> kept = kept(used, scan.schema().size());
            return new Pruned(new ScanNode(scan.table(), kept.stream().map(scan.columns()::get).toList(), scan.schema().select(kept),
                    scan.predicates()), moves(kept, scan.schema().size()));
        }
        if (node instanceof ProjectNode project) {
            List<Integer> kept = kept(used, project.exprs().size());
            BitSet read = new BitSet();
            kept.forEach(i -> Exprs.forEachColumn(project.exprs().get(i), read::set));
            Pruned input = prune(project.input(), read);
            List<Expr> exprs = kept.stream().map(i -> Exprs.remap(project.exprs().get(i), c -> input.moved()[c])).toList();
            return new Pruned(new ProjectNode(input.node(), exprs, project.schema().select(kept)), moves(kept, project.exprs().size()));
        }
        if (node instanceof FilterNode filter) {
            BitSet read = (BitSet) used.clone();
            Exprs.forEachColumn(filter.condition(), read::set);
            Pruned input = prune(filter.input(), read);
            return new Pruned(new FilterNode(input.node(), Exprs.remap(filter.condition(), c -> input.moved()[c])), input.moved());
        }
        if (node instanceof SortNode sort) {
            BitSet read = (BitSet) used.clone();
            sort.keys().forEach(k -> read.set(k.column()));
            Pruned input = prune(sort.input(), read);
            List<SortKey> keys = sort.keys().stream().map(k -> new SortKey(input.moved()[k.column()], k.descending(), k.nullsFirst())).toList();
            return new Pruned(new SortNode(input.node(), keys, sort.offset(), sort.limit()), input.moved());
        }
        if (node instanceof JoinNode join) {
            return join(join, used);
        }
        if (node instanceof AggregateNode aggregate) {
            BitSet read = new BitSet();
            aggregate.groupKeys().forEach(read::set);
            aggregate.aggregates().forEach(a -> a.args().forEach(read::set));
            Pruned input = narrowed(aggregate.input(), read);
            int[] to = input.moved();
            List<AggCall> calls = aggregate.aggregates().stream().map(a -> new AggCall(a.function(), a.args().stream().map(c -> to[c]).toList(),
                    a.distinct(), a.type(), a.name())).toList();
            return same(new AggregateNode(input.node(), aggregate.groupKeys().stream().map(c -> to[c]).toList(), calls, aggregate.schema()));
        }
        // other nodes read every column of their inputs
        return same(node.withInputsIfChanged(node.inputs().stream().map(input -> prune(input, all(input)).node()).toList()));
    }

    private static Pruned join(JoinNode join, BitSet used) {
        int leftWidth = join.left().schema().size();
        int rightWidth = join.right().schema().size();
        BitSet left = used.get(0, leftWidth);
        BitSet right = join.kind().outputsRight() ? used.get(leftWidth, leftWidth + rightWidth) : new BitSet();
        join.leftKeys().forEach(left::set);
        join.rightKeys().forEach(right::set);
        if (join.residual() != null) {
            Exprs.forEachColumn(join.residual(), c -> (c < leftWidth ? left : right).set(c < leftWidth ? c : c - leftWidth));
        }
        Pruned l = narrowed(join.left(), left);
        Pruned r = narrowed(join.right(), right);
        int newLeftWidth = l.node().schema().size();
        int[] moved = new int[join.schema().size()];
        Arrays.fill(moved, -1);
        List<Integer> kept = new ArrayList<>();
        for (int c = 0; c < moved.length; c++) {
            int to = c < leftWidth ? l.moved()[c] : r.moved()[c - leftWidth];
            if (to >= 0) {
                moved[c] = c < leftWidth ? to : newLeftWidth + to;
                kept.add(c);
            }
        }
        Expr residual = join.residual() == null ? null : Exprs.remap(join.residual(),
                c -> c < leftWidth ? l.moved()[c] : newLeftWidth + r.moved()[c - leftWidth]);
        JoinNode pruned = new JoinNode(l.node(), r.node(), join.kind(), join.leftKeys().stream().map(k -> l.moved()[k]).toList(),
                join.rightKeys().stream().map(k -> r.moved()[k]).toList(), residual, join.schema().select(kept), join.buildLeft());
        return new Pruned(pruned, moved);
    }

    /**
     * {@code node} with exactly its output columns {@code used}, under a projection where it keeps more;
     * with none used (a count of rows), the first column it keeps.
     */
    private static Pruned narrowed(PlanNode node, BitSet used) {
        Pruned pruned = prune(node, used);
        List<Integer> kept = used.get(0, node.schema().size()).stream().boxed().toList();
        if (kept.isEmpty()) {
            kept = IntStream.range(0, pruned.moved().length).filter(c -> pruned.moved()[c] >= 0).limit(1).boxed().toList();
        }
        if (pruned.node().schema().size() == kept.size()) {
            return pruned;
        }
        List<Expr> exprs = kept.stream().<Expr>map(c -> new ColumnRef(pruned.moved()[c], node.schema().type(c))).toList();
        return new Pruned(new ProjectNode(pruned.node(), exprs, node.schema().select(kept)), moves(kept, node.schema().size()));
    }

    /** The columns of {@code used} below {@code width}, ascending; the first column when none is (a count of rows still needs one). */
    private static List<Integer> kept(BitSet used, int width) {
        List<Integer> kept = used.get(0, width).stream().boxed().toList();
        return kept.isEmpty() && width > 0 ? List.of(0) : kept;
    }

    /** Where each of {@code width} columns goes when only {@code kept} stay, in order. */
    private static int[] moves(List<Integer> kept, int width) {
        int[] moved = new int[width];
        Arrays.fill(moved, -1);
        for (int i = 0; i < kept.size(); i++) {
            moved[kept.get(i)] = i;
        }
        return moved;
    }
}
