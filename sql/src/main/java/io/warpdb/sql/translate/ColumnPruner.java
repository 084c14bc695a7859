package io.warpdb.sql.translate;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.PlanVisitor;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.SetOpNode;
import io.warpdb.core.plan.SharedNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.UnionNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Drops columns nobody reads, top-down, so that scans decode only the columns a query uses and
 * operators carry no dead columns. Each rewrite returns the new node and where every old output
 * column went (-1 if dropped).
 */
public final class ColumnPruner {
    private ColumnPruner() {
    }

    private record Pruned(PlanNode node, int[] newIndex) {
        Expr remap(Expr e) {
            return Exprs.remap(e, i -> newIndex[i]);
        }
    }

    /** The plan with the same output columns, reading only what it needs. */
    public static PlanNode prune(PlanNode root) {
        BitSet all = new BitSet();
        all.set(0, root.schema().size());
        return prune(root, all).node;
    }

    private static Pruned prune(PlanNode node, BitSet needed) {
        return node.accept(new Rule(needed));
    }

    /** The rewrite of one node of which the columns {@code needed} are read. */
    private record Rule(BitSet needed) implements PlanVisitor<Pruned> {
        @Override
        public Pruned visitScan(ScanNode scan) {
            return scan(scan, needed);
        }

        @Override
        public Pruned visitValues(ValuesNode values) {
            return identity(values);
        }

        @Override
        public Pruned visitFilter(FilterNode filter) {
            BitSet need = copy(needed);
            Exprs.forEachColumn(filter.condition(), need::set);
            Pruned in = prune(filter.input(), need);
            return new Pruned(new FilterNode(in.node, in.remap(filter.condition())), in.newIndex);
        }

        @Override
        public Pruned visitProject(ProjectNode project) {
            return project(project, needed);
        }

        @Override
        public Pruned visitAggregate(AggregateNode aggregate) {
            return aggregate(aggregate);
        }

        @Override
        public Pruned visitJoin(JoinNode join) {
            return join(join, needed);
        }

        @Override
        public Pruned visitSort(SortNode sort) {
            BitSet need = copy(needed);
            sort.keys().forEach(k -> need.set(k.column()));
            Pruned in = prune(sort.input(), need);
            List<SortKey> keys = sort.keys().stream()
                    .map(k -> new SortKey(in.newIndex[k.column()], k.descending(), k.nullsFirst())).toList();
            return new Pruned(new SortNode(in.node, keys, sort.offset(), sort.limit()), in.newIndex);
        }

        @Override
        public Pruned visitUnion(UnionNode union) {
            return union(union, needed);
        }

        @Override
        public Pruned visitSetOp(SetOpNode setOp) {
            return setOp(setOp);
        }

        @Override
        public Pruned visitWindow(WindowNode window) {
            return window(window, needed);
        }

        @Override
        public Pruned visitShared(SharedNode shared) {
            // Every use keeps all the columns, whichever it reads, so that the uses stay equal: one result for all.
            BitSet all = new BitSet();
            all.set(0, shared.schema().size());
            Pruned in = prune(shared.input(), all);
            return new Pruned(new SharedNode(shared.id(), in.node), in.newIndex);
        }
    }

    private static Pruned scan(ScanNode scan, BitSet needed) {
        int[] newIndex = new int[scan.columns().size()];
        Arrays.fill(newIndex, -1);
        List<Integer> kept = new ArrayList<>();
        List<Integer> keptFields = new ArrayList<>();
        for (int c = needed.nextSetBit(0); c >= 0; c = needed.nextSetBit(c + 1)) {
            newIndex[c] = kept.size();
            kept.add(scan.columns().get(c));
            keptFields.add(c);
        }
        return new Pruned(new ScanNode(scan.table(), kept, scan.schema().select(keptFields), scan.predicates()), newIndex);
    }

    private static Pruned project(ProjectNode project, BitSet needed) {
        BitSet need = new BitSet();
        for (int i = needed.nextSetBit(0); i >= 0; i = needed.nextSetBit(i + 1)) {
            Exprs.forEachColumn(project.exprs().get(i), need::set);
        }
        Pruned in = prune(project.input(), need);
        int[] newIndex = new int[project.exprs().size()];
        Arrays.fill(newIndex, -1);
        List<Expr> exprs = new ArrayList<>();
        List<Integer> keptFields = new ArrayList<>();
        for (int i = needed.nextSetBit(0); i >= 0; i = needed.nextSetBit(i + 1)) {
            newIndex[i] = exprs.size();
            exprs.add(in.remap(project.exprs().get(i)));
            keptFields.add(i);
        }
        if (isIdentity(exprs, in.node.schema().size())) {
            return new Pruned(in.node, newIndex);
        }
        return new Pruned(new ProjectNode(in.node, exprs, project.schema().select(keptFields)), newIndex);
    }

    /** Aggregates keep all their outputs; their input keeps the keys and arguments. */
    private static Pruned aggregate(AggregateNode agg) {
        BitSet need = new BitSet();
        agg.groupKeys().forEach(need::set);
        agg.aggregates().forEach(a -> a.args().forEach(need::set));
        Pruned in = prune(agg.input(), need);
        List<Integer> keys = agg.groupKeys().stream().map(k -> in.newIndex[k]).toList();
        List<AggCall> calls = agg.aggregates().stream().map(a -> new AggCall(a.function(),
                a.args().stream().map(x -> in.newIndex[x]).toList(), a.distinct(), a.type(), a.name())).toList();
        return identity(new AggregateNode(in.node, keys, calls, agg.schema()));
    }

    /** A window keeps all its calls; its input keeps the columns needed above, the keys and the arguments. */
    private static Pruned window(WindowNode window, BitSet needed) {
        int inputColumns = window.input().schema().size();
        BitSet need = needed.get(0, inputColumns);
        window.partitionKeys().forEach(need::set);
        window.orderKeys().forEach(k -> need.set(k.column()));
        window.calls().forEach(c -> c.args().forEach(a -> Exprs.forEachColumn(a, need::set)));
        Pruned in = prune(window.input(), need);
        List<Integer> partitionKeys = window.partitionKeys().stream().map(k -> in.newIndex[k]).toList();
        List<SortKey> orderKeys = window.orderKeys().stream()
                .map(k -> new SortKey(in.newIndex[k.column()], k.descending(), k.nullsFirst())).toList();
        List<WindowCall> calls = window.calls().stream().map(c -> new WindowCall(c.function(),
                c.args().stream().map(in::remap).toList(), c.frame(), c.type(), c.name())).toList();
        int keptInputs = in.node.schema().size();
        List<Integer> keptFields = new ArrayList<>();
        int[] newIndex = new int[window.schema().size()];
        for (int c = 0; c < inputColumns; c++) {
            newIndex[c] = in.newIndex[c];
        }
        for (int c = 0; c < keptInputs; c++) {
            keptFields.add(indexOf(in.newIndex, c));
        }
        for (int i = 0; i < calls.size(); i++) {
            newIndex[inputColumns + i] = keptInputs + i;
            keptFields.add(inputColumns + i);
        }
        return new Pruned(new WindowNode(in.node, partitionKeys, orderKeys, calls, window.schema().select(keptFields)),
                newIndex);
    }

    /** The old column that went to position {@code to}. */
    private static int indexOf(int[] newIndex, int to) {
        for (int i = 0; i < newIndex.length; i++) {
            if (newIndex[i] == to) {
                return i;
            }
        }
        throw new IllegalStateException("no column went to " + to);
    }

    /** Every input keeps exactly the needed columns, in the same positions. */
    private static Pruned union(UnionNode union, BitSet needed) {
        List<Integer> kept = needed.stream().boxed().toList();
        List<PlanNode> inputs = new ArrayList<>();
        for (PlanNode input : union.inputs()) {
            Pruned in = prune(input, needed);
            List<Expr> exprs = kept.stream().map(c -> (Expr) new ColumnRef(in.newIndex[c], input.schema().type(c))).toList();
            inputs.add(isIdentity(exprs, in.node.schema().size()) ? in.node
                    : new ProjectNode(in.node, exprs, input.schema().select(kept)));
        }
        int[] newIndex = new int[union.schema().size()];
        Arrays.fill(newIndex, -1);
        for (int i = 0; i < kept.size(); i++) {
            newIndex[kept.get(i)] = i;
        }
        return new Pruned(new UnionNode(inputs, union.schema().select(kept)), newIndex);
    }

    /** Set operations compare whole rows: both inputs keep every column. */
    private static Pruned setOp(SetOpNode setOp) {
        BitSet all = new BitSet();
        all.set(0, setOp.schema().size());
        Pruned left = prune(setOp.left(), all);
        Pruned right = prune(setOp.right(), all);
        return identity(new SetOpNode(setOp.kind(), setOp.all(), left.node, right.node, setOp.schema()));
    }

    private static Pruned join(JoinNode join, BitSet needed) {
        int leftCount = join.left().schema().size();
        BitSet all = copy(needed);
        if (join.residual() != null) {
            Exprs.forEachColumn(join.residual(), all::set);
        }
        BitSet leftNeed = all.get(0, leftCount);
        BitSet rightNeed = all.get(leftCount, Math.max(leftCount, all.length()));
        join.leftKeys().forEach(leftNeed::set);
        join.rightKeys().forEach(rightNeed::set);
        Pruned left = prune(join.left(), leftNeed);
        Pruned right = prune(join.right(), rightNeed);
        int newLeftCount = left.node.schema().size();
        int outputs = join.kind().outputsRight() ? leftCount + join.right().schema().size() : leftCount;
        int[] combined = new int[leftCount + join.right().schema().size()];
        for (int i = 0; i < combined.length; i++) {
            int mapped = i < leftCount ? left.newIndex[i] : right.newIndex[i - leftCount];
            combined[i] = mapped < 0 ? -1 : (i < leftCount ? mapped : newLeftCount + mapped);
        }
        Expr residual = join.residual() == null ? null : Exprs.remap(join.residual(), i -> combined[i]);
        Schema schema = join.kind().outputsRight()
                ? left.node.schema().concat(right.node.schema()) : left.node.schema();
        PlanNode rewritten = new JoinNode(left.node, right.node, join.kind(),
                join.leftKeys().stream().map(k -> left.newIndex[k]).toList(),
                join.rightKeys().stream().map(k -> right.newIndex[k]).toList(), residual, schema, join.buildLeft());
        return new Pruned(rewritten, Arrays.copyOf(combined, outputs));
    }

    /** A projection that passes its input's columns through unchanged does no work worth a node. */
    private static boolean isIdentity(List<Expr> exprs, int inputColumns) {
        if (exprs.size() != inputColumns) {
            return false;
        }
        for (int i = 0; i < exprs.size(); i++) {
            if (!(exprs.get(i) instanceof ColumnRef ref) || ref.index() != i) {
                return false;
            }
        }
        return true;
    }

    private static Pruned identity(PlanNode node) {
        int[] same = new int[node.schema().size()];
        Arrays.setAll(same, i -> i);
        return new Pruned(node, same);
    }

    private static BitSet copy(BitSet b) {
        return (BitSet) b.clone();
    }
}
