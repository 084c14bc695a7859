package io.warpdb.cluster;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Cuts a query's core plan into the fragments every shard runs over its own rows and the plan the
 * coordinator runs over their results. A subtree is shard-local when the union of its results on
 * all shards is its result over the whole tables: scans of hash-distributed tables, filters and
 * projections of shard-local input, joins of a shard-local side with a replicated one (the kinds
 * that keep the distributed side's rows apart), joins of two shard-local sides on their
 * distribution columns (co-located: equal values hash to one shard), and aggregates grouping by
 * the distribution column. The largest shard-local subtrees become fragments whose results the
 * coordinator concatenates; an aggregate over a shard-local input that is not itself shard-local
 * becomes a partial aggregate on the shards, which the coordinator merges (SUM of sums and of
 * counts, MIN of minima, MAX of maxima). The rest, and subtrees over replicated tables alone,
 * run on the coordinator.
 */
final class FragmentPlanner {
    private static final Set<AggFunction> MERGEABLE = EnumSet.of(AggFunction.COUNT_STAR, AggFunction.COUNT, AggFunction.SUM,
            AggFunction.MIN, AggFunction.MAX);
    private static final Set<JoinKind> KEEPS_LEFT_APART = EnumSet.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI);

    /** A subtree every shard runs; {@code partial}: an aggregate the coordinator merges, else rows it concatenates. */
    record Fragment(int id, PlanNode plan, boolean partial) {
    }

    /** How a subtree's rows lie: on the shards by hash, on every node, or only here. */
    private enum Spread { HASHED, REPLICATED, LOCAL }

    /** A subtree's spread; {@code key}: for HASHED, the output column holding the distribution value, or -1. */
    private record Layout(Spread spread, int key) {
        static final Layout REPLICATED = new Layout(Spread.REPLICATED, -1);
        static final Layout LOCAL = new Layout(Spread.LOCAL, -1);
    }

    private final ClusterCatalog catalog;
    private final Map<PlanNode, Layout> layouts = new IdentityHashMap<>();
    private final List<Fragment> fragments = new ArrayList<>();

    private FragmentPlanner(ClusterCatalog catalog) {
        this.catalog = catalog;
    }

    /** The fragments of {@code plan}, in the order the coordinator's plan reads them. */
    static List<Fragment> fragments(PlanNode plan, ClusterCatalog catalog) {
        FragmentPlanner planner = new FragmentPlanner(catalog);
        planner.collect(plan);
        return planner.fragments;
    }

    /**
     * {@code plan} with each fragment replaced by a scan of its gathered results in {@code sources}
     * (by fragment id), under a merging aggregate for a partial one.
     */
    static PlanNode coordinatorPlan(PlanNode plan, List<Fragment> fragments, Map<Integer, TableSource> sources) {
        Map<PlanNode, Fragment> byRoot = new IdentityHashMap<>();
        fragments.forEach(f -> byRoot.put(f.plan(), f));
        return replace(plan, byRoot, sources);
    }

    private static PlanNode replace(PlanNode node, Map<PlanNode, Fragment> byRoot, Map<Integer, TableSource> sources) {
        Fragment fragment = byRoot.get(node);
        if (fragment != null) {
            TableSource source = sources.get(fragment.id());
            ScanNode gathered = new ScanNode(source, IntStream.range(0, node.schema().size()).boxed().toList(), node.schema());
            return fragment.partial() ? merge((AggregateNode) node, gathered) : gathered;
        }
        if (node.inputs().isEmpty()) {
            return node;
        }
        return node.withInputs(node.inputs().stream().map(input -> replace(input, byRoot, sources)).toList());
    }

    /** The coordinator's half of a partial aggregate: the shards' groups merged by their keys. */
    private static AggregateNode merge(AggregateNode partial, ScanNode partials) {
        int keys = partial.groupKeys().size();
        List<AggCall> merged = new ArrayList<>();
        for (int i = 0; i < partial.aggregates().size(); i++) {
            AggCall call = partial.aggregates().get(i);
            AggFunction function = switch (call.function()) {
                case COUNT_STAR, COUNT, SUM -> AggFunction.SUM;
                default -> call.function();
            };
            merged.add(new AggCall(function, List.of(keys + i), false, call.type(), call.name()));
        }
        return new AggregateNode(partials, IntStream.range(0, keys).boxed().toList(), merged, partial.schema());
    }

    /**
     * What identifies a subtree across nodes that plan one query alike: each node's description
     * and columns, depth first. A shard finds its own copy of a fragment by it.
     */
    static String fingerprint(PlanNode node) {
        StringBuilder text = new StringBuilder();
        fingerprint(node, text);
        return text.toString();
    }

    private static void fingerprint(PlanNode node, StringBuilder text) {
        text.append(node.describe()).append(' ').append(node.schema()).append('[');
        node.inputs().forEach(input -> fingerprint(input, text));
        text.append(']');
    }

    private void collect(PlanNode node) {
        if (layout(node).spread() == Spread.HASHED) {
            fragments.add(new Fragment(fragments.size(), node, false));
            return;
        }
        if (node instanceof AggregateNode aggregate && layout(aggregate.input()).spread() == Spread.HASHED
                && aggregate.aggregates().stream().allMatch(c -> !c.distinct() && MERGEABLE.contains(c.function()))) {
            fragments.add(new Fragment(fragments.size(), node, true));
            return;
        }
        node.inputs().forEach(this::collect);
    }

    private Layout layout(PlanNode node) {
        Layout known = layouts.get(node);
        if (known == null) {
            known = place(node);
            layouts.put(node, known);
        }
        return known;
    }

    private Layout place(PlanNode node) {
        if (node instanceof ScanNode scan) {
            return scan(scan);
        }
        if (node instanceof ValuesNode) {
            return Layout.REPLICATED;
        }
        if (node instanceof FilterNode filter) {
            return layout(filter.input());
        }
        if (node instanceof ProjectNode project) {
            Layout input = layout(project.input());
            if (input.spread() != Spread.HASHED) {
                return input;
            }
            return new Layout(Spread.HASHED, indexOfColumn(project.exprs(), input.key()));
        }
        if (node instanceof JoinNode join) {
            return join(join);
        }
        if (node instanceof AggregateNode aggregate) {
            Layout input = layout(aggregate.input());
            if (input.spread() == Spread.REPLICATED) {
                return input;
            }
            int key = input.spread() == Spread.HASHED ? aggregate.groupKeys().indexOf(input.key()) : -1;
            return key >= 0 && input.key() >= 0 ? new Layout(Spread.HASHED, key) : Layout.LOCAL;
        }
        return Layout.LOCAL;
    }

    private Layout scan(ScanNode scan) {
        Optional<ClusterCatalog.TableEntry> entry = catalog.table(scan.table().name());
        if (entry.isEmpty()) {
            return Layout.LOCAL; // a system table: this node's own
        }
        if (entry.get().distribution().replicated()) {
            return Layout.REPLICATED;
        }
        int column = entry.get().distribution().columnIn(scan.table().schema());
        return new Layout(Spread.HASHED, scan.columns().indexOf(column));
    }

    private Layout join(JoinNode join) {
        Layout left = layout(join.left());
        Layout right = layout(join.right());
        int leftWidth = join.left().schema().size();
        if (left.spread() == Spread.REPLICATED && right.spread() == Spread.REPLICATED) {
            return Layout.REPLICATED;
        }
        if (left.spread() == Spread.HASHED && right.spread() == Spread.REPLICATED && KEEPS_LEFT_APART.contains(join.kind())) {
            return left;
        }
        if (left.spread() == Spread.REPLICATED && right.spread() == Spread.HASHED
                && (join.kind() == JoinKind.INNER || join.kind() == JoinKind.RIGHT)) {
            return new Layout(Spread.HASHED, right.key() < 0 ? -1 : leftWidth + right.key());
        }
        if (left.spread() == Spread.HASHED && right.spread() == Spread.HASHED && coLocated(join, left.key(), right.key())) {
            return new Layout(Spread.HASHED, KEEPS_LEFT_APART.contains(join.kind()) ? left.key() : -1);
        }
        return Layout.LOCAL;
    }

    /** Whether the join matches rows on both sides' distribution columns, of one type (so that equal values hashed alike). */
    private static boolean coLocated(JoinNode join, int leftKey, int rightKey) {
        if (leftKey < 0 || rightKey < 0) {
            return false;
        }
        DataType l = join.left().schema().type(leftKey);
        DataType r = join.right().schema().type(rightKey);
        if (!l.withNullable(true).equals(r.withNullable(true))) {
            return false;
        }
        for (int i = 0; i < join.leftKeys().size(); i++) {
            if (join.leftKeys().get(i) == leftKey && join.rightKeys().get(i) == rightKey) {
                return true;
            }
        }
        return false;
    }

    private static int indexOfColumn(List<Expr> exprs, int column) {
        for (int i = 0; column >= 0 && i < exprs.size(); i++) {
            if (exprs.get(i) instanceof ColumnRef ref && ref.index() == column) {
                return i;
            }
        }
        return -1;
    }
}
