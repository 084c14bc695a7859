package io.warpdb.cluster;

import io.warpdb.core.data.TableSource;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.core.plan.SortNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Cuts a query's core plan into the fragments every shard runs over its own rows and the plan the
 * coordinator runs over their results. A subtree is shard-local when the union of its results on
 * all shards is its result over the whole tables: scans of hash-distributed tables, filters and
 * projections of shard-local input, joins of a shard-local side with a replicated one (the kinds
 * that keep the distributed side's rows apart), joins of two shard-local sides on their
 * distribution columns (co-located: equal values hash to one shard), and aggregates grouping by
 * the distribution column (on a cluster of one node: all of them). Two shard-local sides that are
 * not co-located are made so by moving rows between the shards: the smaller side broadcast to
 * every shard when its rows times the other shards are fewer than the larger side's (and the join
 * kind keeps the larger side's rows apart), else both sides repartitioned by the murmur3 hash of their equality keys; each moved
 * side is a fragment of its own whose rows the join's fragment reads from the exchange. The
 * largest shard-local subtrees become fragments whose results the coordinator concatenates; an
 * aggregate over a shard-local input that is not itself shard-local becomes a partial aggregate
 * on the shards, which the coordinator merges (SUM of sums and of counts, MIN of minima, MAX of
 * maxima, AVG as a sum of sums divided by a sum of counts); a grouped aggregate that does not
 * merge so (DISTINCT, variances) repartitions its input by the hash of its group keys and runs
 * whole on the shards, and so does a mergeable grouped aggregate that a join reads beside a
 * shard-local side (a decorrelated subquery's, TPC-H q17, q20, q02): merged on the coordinator,
 * it would take the join there and bring the other side's every row with it. The rest, and
 * subtrees over replicated tables alone, run on the coordinator.
 */
final class FragmentPlanner {
    private static final Set<AggFunction> MERGEABLE = EnumSet.of(AggFunction.COUNT_STAR, AggFunction.COUNT, AggFunction.SUM,
            AggFunction.MIN, AggFunction.MAX, AggFunction.ANY_VALUE);
    private static final Set<JoinKind> KEEPS_LEFT_APART = EnumSet.of(JoinKind.INNER, JoinKind.LEFT, JoinKind.SEMI, JoinKind.ANTI);
    private static final Set<JoinKind> KEEPS_RIGHT_APART = EnumSet.of(JoinKind.INNER, JoinKind.RIGHT);

    /**
     * Where a fragment's rows go: to the coordinator (concatenated, or merged by group), or to every
     * shard (by hash, or all; MERGE_EVERYWHERE: a partial aggregate's groups to every shard, each of
     * which merges them, so that every shard holds the whole aggregate, e.g. a scalar subquery's
     * value that a join on the shards reads).
     */
    enum Output { GATHER, MERGE, REPARTITION, BROADCAST, MERGE_EVERYWHERE }

    /**
     * A subtree every shard runs. {@code keys}: for REPARTITION, the output columns whose hash
     * picks each row's shard. {@code inputs}: the fragments whose exchanged rows replace subtrees
     * of {@code plan}. {@code topN}: gathered for a sort with a limit right above it, of whose rows
     * each shard sends only its first (offset + limit) in that sort's order ({@link #shardTopN}).
     */
    record Fragment(int id, PlanNode plan, Output output, List<Integer> keys, List<Input> inputs, boolean topN) {
        Fragment {
            keys = List.copyOf(keys);
            inputs = List.copyOf(inputs);
        }

        boolean partial() {
            return output == Output.MERGE || output == Output.MERGE_EVERYWHERE;
        }

        /** Whether its rows go to the coordinator, not to the shards. */
        boolean gathered() {
            return output == Output.GATHER || output == Output.MERGE;
        }
    }

    /**
     * Fragment {@code fragment}'s rows replace the subtree of a fragment's plan at {@code path}
     * (input positions from its root); {@code partial}: they are a partial aggregate's groups, which
     * the reading shard merges ({@link #withInputs}).
     */
    record Input(int fragment, List<Integer> path, boolean partial) {
        Input {
            path = List.copyOf(path);
        }
    }

    /** How a subtree's rows lie: on the shards by hash, on every node, or only here. */
    private enum Spread { HASHED, REPLICATED, LOCAL }

    /**
     * A subtree's spread; {@code keys}: for HASHED, the output columns that each hold the value its
     * rows lie hashed by (several after an inner join of equal key columns), none when no column does.
     */
    private record Layout(Spread spread, List<Integer> keys) {
        static final Layout REPLICATED = new Layout(Spread.REPLICATED, List.of());
        static final Layout LOCAL = new Layout(Spread.LOCAL, List.of());

        Layout {
            keys = List.copyOf(keys);
        }

        static Layout hashed(List<Integer> keys) {
            return new Layout(Spread.HASHED, keys);
        }

        /** Lying hashed by column {@code key}, or by no known column when it is -1. */
        static Layout hashed(int key) {
            return hashed(key < 0 ? List.of() : List.of(key));
        }

        /** The keys as columns of a join's output, of which this is the right side's layout, after {@code leftWidth} columns. */
        List<Integer> after(int leftWidth) {
            return keys.stream().map(k -> leftWidth + k).toList();
        }
    }

    /**
     * How a join of two shard-local sides brings matching rows together (and an aggregate its
     * groups: REPARTITION): both sides hashed by their keys, one side hashed by one key to where the
     * other side already lies (MOVE_LEFT, MOVE_RIGHT), or one side sent whole to every shard.
     */
    private enum Move { REPARTITION, MOVE_LEFT, MOVE_RIGHT, BROADCAST_LEFT, BROADCAST_RIGHT }

    private final ClusterCatalog catalog;
    private final int nodes;
    private final Map<PlanNode, Layout> layouts = new IdentityHashMap<>();
    private final Map<PlanNode, Move> moves = new IdentityHashMap<>();
    /** For MOVE_LEFT and MOVE_RIGHT: which pair of the join's equality keys the moved side is hashed by. */
    private final Map<PlanNode, Integer> movedPairs = new IdentityHashMap<>();
    /** Aggregates without groups whose partial groups go to every shard, which merges them, for a join above them ({@link #keepOnShards}). */
    private final Set<AggregateNode> mergedEverywhere = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Mergeable aggregates that run whole on the shards all the same, for a join above them ({@link #keepOnShards}). */
    private final Set<AggregateNode> wholeOnShards = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Fragment> fragments = new ArrayList<>();
    /** The gathered fragments by output and {@link #fingerprint}: what identifies their rows. */
    private final Map<String, Fragment> gathered = new HashMap<>();

    private FragmentPlanner(ClusterCatalog catalog, int nodes) {
        this.catalog = catalog;
        this.nodes = nodes;
    }

    /**
     * The joins of {@code plan} to turn ({@link JoinRotation}) before it is cut, by {@link JoinRotation.Turn#name}:
     * two inner joins whose middle input M would join the other input O where both lie (co-located),
     * while M's join with its partner N moves rows, where O is unique on its one join key (a grouped
     * aggregate's: M's rows matched to it move to meet N instead of all of M or all of N, TPC-H q18)
     * or M's join with O is estimated at fewer bytes than M's with N (the smaller join moves: q09's
     * green parts with their partsupp rows go to lineitem, instead of lineitem's green rows moving to
     * partsupp and back).
     */
    static Set<String> rotations(PlanNode plan, ClusterCatalog catalog, int nodes) {
        Set<String> turned = new LinkedHashSet<>();
        if (nodes > 1) {
            new FragmentPlanner(catalog, nodes).findRotations(plan, turned);
        }
        return turned;
    }

    private void findRotations(PlanNode node, Set<String> turned) {
        for (JoinRotation.Turn turn : JoinRotation.Turn.ALL) {
            Optional<JoinRotation.Turned> candidate = JoinRotation.turned(node, turn);
            if (candidate.isPresent() && worthTurning(candidate.get())) {
                turned.add(turn.name(fingerprint(node)));
                break;
            }
        }
        node.inputs().forEach(input -> findRotations(input, turned));
    }

    private boolean worthTurning(JoinRotation.Turned turn) {
        JoinNode first = turn.first();
        if (!hashed(turn.middle(), turn.partner(), turn.other()) || !coLocated(first) || coLocated(turn.inner())) {
            return false;
        }
        boolean otherFirst = first.left() == turn.other();
        List<Integer> otherKeys = otherFirst ? first.leftKeys() : first.rightKeys();
        return otherKeys.size() == 1 && JoinRotation.uniqueOn(turn.other(), otherKeys.get(0))
                || RowEstimate.bytes(first, this::shardLocal, nodes) < RowEstimate.bytes(turn.inner(), this::shardLocal, nodes);
    }

    private boolean hashed(PlanNode... nodes) {
        return Stream.of(nodes).allMatch(this::shardLocal);
    }

    /** Whether both sides of {@code join} lie hashed by a pair of its keys. */
    private boolean coLocated(JoinNode join) {
        return hashed(join.left(), join.right()) && coLocated(join, layout(join.left()).keys(), layout(join.right()).keys());
    }

    /**
     * {@code plan} as every node cuts it: the joins {@code names} names turned ({@link #rotations}),
     * then reordered ({@link #joinOrders}), then its columns pruned ({@link ColumnPruning}). The
     * coordinator and every shard make it here, so that the fragments' fingerprints match.
     */
    static PlanNode reshaped(PlanNode plan, Set<String> names) {
        return ColumnPruning.prune(JoinOrder.apply(JoinRotation.apply(plan, names), names));
    }

    /**
     * The inner joins of {@code plan} (turned already, {@link #rotations}) to build in another order
     * before it is cut, by {@link JoinOrder#name}: for each group of three or more, the largest input
     * that lies hashed on the shards first, then over and over the input tied to those before it that
     * joins them where it lies (co-located), else one on every node, else the smallest, which moves;
     * kept where the plan so ordered is estimated to move fewer bytes between the nodes and to the
     * coordinator ({@link #bytesMoved}). TPC-H q10: lineitem with orders where both lie by order key,
     * then the revenue rows to customer by customer key, so that the aggregate per customer runs where
     * its rows lie and only each shard's top 20 goes to the coordinator, instead of orders moving to
     * customer, the joined rows with customer's strings to lineitem and 4.6 M partial groups with
     * strings to the coordinator (SF 100).
     */
    static Set<String> joinOrders(PlanNode plan, ClusterCatalog catalog, int nodes) {
        Set<String> names = new LinkedHashSet<>();
        if (nodes > 1) {
            chooseOrders(plan, plan, names, catalog, nodes);
        }
        return names;
    }

    /** Chooses the orders of the joins at and under {@code node}, a subtree of {@code whole}; returns {@code whole} with those chosen. */
    private static PlanNode chooseOrders(PlanNode node, PlanNode whole, Set<String> names, ClusterCatalog catalog, int nodes) {
        Optional<JoinOrder> joins = JoinOrder.of(node);
        PlanNode chosen = whole;
        if (joins.isPresent()) {
            List<List<Integer>> order = new FragmentPlanner(catalog, nodes).leastMovingOrder(joins.get());
            Optional<PlanNode> built = order == null ? Optional.empty() : joins.get().build(order);
            if (built.isPresent() && !fingerprint(built.get()).equals(fingerprint(node))) {
                PlanNode candidate = replaced(whole, node, built.get());
                if (bytesMoved(candidate, catalog, nodes) < bytesMoved(whole, catalog, nodes)) {
                    names.add(JoinOrder.name(order, fingerprint(node)));
                    chosen = candidate;
                }
            }
        }
        for (PlanNode input : joins.isPresent() ? joins.get().inputs() : node.inputs()) {
            chosen = chooseOrders(input, chosen, names, catalog, nodes);
        }
        return chosen;
    }

    /** {@code root} with the subtree {@code target} (by identity) replaced by {@code replacement}. */
    private static PlanNode replaced(PlanNode root, PlanNode target, PlanNode replacement) {
        if (root == target) {
            return replacement;
        }
        return root.withInputsIfChanged(root.inputs().stream().map(input -> replaced(input, target, replacement)).toList());
    }

    /**
     * The order {@link #joinOrders} describes, as units of inputs: one input, or one that moves with
     * the inputs on every node tied to it alone (joined with it first, so that their conditions cut
     * it before it moves: TPC-H q07's customers of two nations); null when no input lies hashed or
     * one is tied to none.
     */
    private List<List<Integer>> leastMovingOrder(JoinOrder joins) {
        List<PlanNode> inputs = joins.inputs();
        int first = -1;
        double most = -1;
        for (int i = 0; i < inputs.size(); i++) {
            double bytes = RowEstimate.bytes(inputs.get(i), this::shardLocal, nodes);
            if (shardLocal(inputs.get(i)) && bytes > most) {
                first = i;
                most = bytes;
            }
        }
        if (first < 0) {
            return null;
        }
        List<List<Integer>> units = new ArrayList<>();
        units.add(List.of(first));
        Set<Integer> joined = new LinkedHashSet<>(List.of(first));
        while (joined.size() < inputs.size()) {
            int pick = -1;
            int pickRank = Integer.MAX_VALUE;
            double pickBytes = Double.MAX_VALUE;
            for (int i = 0; i < inputs.size(); i++) {
                if (joined.contains(i) || !joins.tied(joined, i)) {
                    continue;
                }
                List<List<Integer>> trial = new ArrayList<>(units);
                trial.add(List.of(i));
                int rank = coLocated((JoinNode) joins.prefix(trial).orElseThrow()) ? 0
                        : layout(inputs.get(i)).spread() == Spread.REPLICATED ? 1 : 2;
                double bytes = RowEstimate.bytes(inputs.get(i), this::shardLocal, nodes);
                if (rank < pickRank || rank == pickRank && bytes < pickBytes) {
                    pick = i;
                    pickRank = rank;
                    pickBytes = bytes;
                }
            }
            if (pick < 0) {
                return null;
            }
            List<Integer> unit = new ArrayList<>(List.of(pick));
            if (pickRank == 2) {
                for (boolean grew = true; grew; ) {
                    grew = false;
                    for (int i = 0; i < inputs.size(); i++) {
                        if (!joined.contains(i) && !unit.contains(i) && layout(inputs.get(i)).spread() == Spread.REPLICATED
                                && joins.tied(Set.copyOf(unit), i) && !joins.tied(joined, i)) {
                            unit.add(i);
                            grew = true;
                        }
                    }
                }
            }
            units.add(List.copyOf(unit));
            joined.addAll(unit);
        }
        return units;
    }

    /**
     * The bytes {@code plan}'s fragments are estimated to send: a broadcast to every other node, a
     * repartition its share for other nodes, the rest to the coordinator (a top-N fragment its
     * first rows from each shard).
     */
    static double bytesMoved(PlanNode plan, ClusterCatalog catalog, int nodes) {
        FragmentPlanner planner = new FragmentPlanner(catalog, nodes);
        planner.collect(plan);
        double moved = 0;
        for (Fragment f : planner.fragments) {
            double rows = RowEstimate.of(f.plan(), planner::shardLocal, nodes);
            double bytes = RowEstimate.bytes(f.plan(), planner::shardLocal, nodes);
            if (f.topN() && first(plan, n -> n instanceof SortNode s && s.input() == f.plan()) instanceof SortNode sort && rows > 0) {
                bytes *= Math.min(1, (double) (sort.offset() + sort.limit()) * nodes / rows);
            }
            moved += bytes * switch (f.output()) {
                case BROADCAST, MERGE_EVERYWHERE -> nodes - 1;
                case REPARTITION -> (nodes - 1) / (double) nodes;
                case GATHER, MERGE -> 1;
            };
        }
        return moved;
    }

    /** The fragments of {@code plan} on {@code nodes} shards, each after the fragments it reads. */
    static List<Fragment> fragments(PlanNode plan, ClusterCatalog catalog, int nodes) {
        FragmentPlanner planner = new FragmentPlanner(catalog, nodes);
        planner.collect(plan);
        return planner.fragments;
    }

    /**
     * {@code plan} with each gathered fragment replaced by a scan of its gathered results in
     * {@code sources} (by fragment id), under a merging aggregate for a partial one.
     */
    static PlanNode coordinatorPlan(PlanNode plan, List<Fragment> fragments, Map<Integer, TableSource> sources) {
        Map<String, Fragment> byRows = new HashMap<>();
        fragments.stream().filter(Fragment::gathered).forEach(f -> byRows.put(fingerprint(f.plan()), f));
        return replace(plan, byRows, sources);
    }

    /** By fingerprint, not identity: a subtree the plan holds twice reads its one fragment's results ({@link #cut}). */
    private static PlanNode replace(PlanNode node, Map<String, Fragment> byRows, Map<Integer, TableSource> sources) {
        Fragment fragment = byRows.get(fingerprint(node));
        if (fragment != null) {
            if (fragment.partial()) {
                return merge((AggregateNode) node, scanOf(sources.get(fragment.id()), shardHalf((AggregateNode) node)));
            }
            return scanOf(sources.get(fragment.id()), node);
        }
        if (node.inputs().isEmpty()) {
            return node;
        }
        return node.withInputs(node.inputs().stream().map(input -> replace(input, byRows, sources)).toList());
    }

    /** A scan of {@code source}, which holds the rows of {@code node}, in its place. */
    private static ScanNode scanOf(TableSource source, PlanNode node) {
        return new ScanNode(source, IntStream.range(0, node.schema().size()).boxed().toList(), node.schema());
    }

    /**
     * {@code root} with the subtree at each path of {@code sources} replaced by a scan of that source,
     * which holds its rows, or, at the paths of {@code partials} (aggregates), the groups of its
     * partial aggregates merged ({@link #merge}).
     */
    static PlanNode withInputs(PlanNode root, Map<List<Integer>, TableSource> sources, Set<List<Integer>> partials) {
        return withInputs(root, new ArrayList<>(), sources, partials);
    }

    private static PlanNode withInputs(PlanNode node, List<Integer> path, Map<List<Integer>, TableSource> sources,
            Set<List<Integer>> partials) {
        TableSource source = sources.get(path);
        if (source != null) {
            return partials.contains(path) ? merge((AggregateNode) node, scanOf(source, shardHalf((AggregateNode) node)))
                    : scanOf(source, node);
        }
        if (node.inputs().isEmpty() || sources.keySet().stream().noneMatch(p -> p.size() > path.size() && p.subList(0, path.size()).equals(path))) {
            return node;
        }
        List<PlanNode> inputs = new ArrayList<>();
        for (int i = 0; i < node.inputs().size(); i++) {
            path.add(i);
            inputs.add(withInputs(node.inputs().get(i), path, sources, partials));
            path.remove(path.size() - 1);
        }
        return node.withInputs(inputs);
    }

    /** The subtree of {@code root} at {@code path}. */
    static PlanNode at(PlanNode root, List<Integer> path) {
        PlanNode node = root;
        for (int i : path) {
            node = node.inputs().get(i);
        }
        return node;
    }

    /**
     * The shards' half of a partial aggregate: each AVG as the SUM of its argument in its place
     * and the COUNT of it after all the calls, which the coordinator divides ({@link #merge}).
     */
    static AggregateNode shardHalf(AggregateNode aggregate) {
        List<AggCall> calls = new ArrayList<>();
        List<AggCall> counts = new ArrayList<>();
        for (AggCall call : aggregate.aggregates()) {
            if (call.function() != AggFunction.AVG) {
                calls.add(call);
                continue;
            }
            DataType argument = aggregate.input().schema().type(call.args().get(0));
            calls.add(new AggCall(AggFunction.SUM, call.args(), false, partialSumType(argument), call.name() + "_sum"));
            counts.add(new AggCall(AggFunction.COUNT, call.args(), false, DataType.BIGINT, call.name() + "_count"));
        }
        if (counts.isEmpty()) {
            return aggregate;
        }
        calls.addAll(counts);
        List<Field> fields = new ArrayList<>(aggregate.schema().fields().subList(0, aggregate.groupKeys().size()));
        calls.forEach(c -> fields.add(new Field(c.name(), c.type())));
        return new AggregateNode(aggregate.input(), aggregate.groupKeys(), calls, new Schema(fields));
    }

    /** A shard's SUM behind an AVG, typed as SQL types a SUM: DECIMAL(38, s) of DECIMAL(p, s), BIGINT of integers, DOUBLE of DOUBLE. */
    private static DataType partialSumType(DataType argument) {
        return switch (argument.kind()) {
            case DECIMAL -> DataType.decimal(DataType.MAX_WIDE_DECIMAL_PRECISION, argument.scale());
            case DOUBLE -> DataType.DOUBLE;
            default -> DataType.BIGINT;
        };
    }

    /**
     * Whether an aggregate merges from the shards' partial results: no DISTINCT; COUNT, SUM, MIN,
     * MAX, ANY_VALUE; AVG of an integer, a DECIMAL of up to 18 digits or a DOUBLE (the coordinator divides the
     * merged sum by the merged count as a rolled-up AVG does, {@link Exprs#average}).
     */
    private static boolean mergeable(AggregateNode aggregate) {
        for (AggCall c : aggregate.aggregates()) {
            boolean merges = MERGEABLE.contains(c.function()) || c.function() == AggFunction.AVG
                    && splitsAverage(aggregate.input().schema().type(c.args().get(0)));
            if (c.distinct() || !merges) {
                return false;
            }
        }
        return true;
    }

    private static boolean splitsAverage(DataType argument) {
        TypeKind kind = argument.kind();
        return kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.DOUBLE
                || kind == TypeKind.DECIMAL && !argument.isWideDecimal();
    }

    /**
     * The coordinator's half of a partial aggregate: the shards' groups ({@link #shardHalf}'s
     * columns) merged by their keys, each AVG the merged sum divided by the merged count.
     */
    private static PlanNode merge(AggregateNode partial, ScanNode partials) {
        int keys = partial.groupKeys().size();
        AggregateNode half = shardHalf(partial);
        List<AggCall> merged = new ArrayList<>();
        for (int i = 0; i < half.aggregates().size(); i++) {
            AggCall call = half.aggregates().get(i);
            AggFunction function = switch (call.function()) {
                case COUNT_STAR, COUNT, SUM -> AggFunction.SUM;
                default -> call.function();
            };
            merged.add(new AggCall(function, List.of(keys + i), false, call.type(), call.name()));
        }
        AggregateNode merging = new AggregateNode(partials, IntStream.range(0, keys).boxed().toList(), merged, half.schema());
        if (half == partial) {
            return merging;
        }
        List<Expr> finished = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            finished.add(new ColumnRef(k, half.schema().type(k)));
        }
        int count = keys + partial.aggregates().size();
        for (int i = 0; i < partial.aggregates().size(); i++) {
            AggCall call = partial.aggregates().get(i);
            ColumnRef value = new ColumnRef(keys + i, half.schema().type(keys + i));
            if (call.function() == AggFunction.AVG) {
                finished.add(Exprs.average(value, new ColumnRef(count, DataType.BIGINT), call.type()));
                count++;
            } else {
                finished.add(value);
            }
        }
        return new ProjectNode(merging, finished, partial.schema());
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
            cut(node, Output.GATHER, List.of());
            return;
        }
        if (node instanceof SortNode sort && sort.limit() >= 0 && layout(sort.input()).spread() == Spread.HASHED) {
            cut(sort.input(), Output.GATHER, List.of(), true);
            return;
        }
        if (node instanceof AggregateNode aggregate && layout(aggregate.input()).spread() == Spread.HASHED && mergeable(aggregate)) {
            cut(node, Output.MERGE, List.of());
            return;
        }
        node.inputs().forEach(this::collect);
    }

    /** Makes {@code root} a fragment, after the fragments of the sides its joins move; returns its id. */
    private int cut(PlanNode root, Output output, List<Integer> keys) {
        return cut(root, output, keys, false);
    }

    private int cut(PlanNode root, Output output, List<Integer> keys, boolean topN) {
        // a subtree the plan holds twice (a view read twice: TPC-H q15's revenue, in its join and
        // under its MAX) gathers its rows once, which the coordinator reads at both places
        String rows = output + " " + topN + " " + fingerprint(root);
        Fragment same = gathered.get(rows);
        if (same != null) {
            return same.id();
        }
        List<Input> inputs = new ArrayList<>();
        findMoves(root, new ArrayList<>(), inputs);
        int id = fragments.size();
        Fragment fragment = new Fragment(id, root, output, keys, inputs, topN);
        fragments.add(fragment);
        if (fragment.gathered()) {
            gathered.put(rows, fragment);
        }
        return id;
    }

    /**
     * What a shard runs of a top-N fragment ({@link Fragment#topN}) whose subtree is {@code fragment}
     * in {@code plan} (the query's plan on that node): {@code run}, its copy with the inputs
     * replaced, under the sort of {@code plan} above the subtree, keeping the first offset + limit
     * rows, of which the coordinator's sort then skips and keeps as the query asks.
     */
    static SortNode shardTopN(PlanNode plan, PlanNode fragment, PlanNode run) {
        String below = fingerprint(fragment);
        if (!(first(plan, n -> n instanceof SortNode s && s.limit() >= 0 && fingerprint(s.input()).equals(below)) instanceof SortNode sort)) {
            throw new IllegalStateException("no sort with a limit above the fragment " + fragment.describe());
        }
        return new SortNode(run, sort.keys(), 0, sort.offset() + sort.limit());
    }

    /** The first subtree of {@code node}, depth first, that {@code test} accepts, or null. */
    static PlanNode first(PlanNode node, Predicate<PlanNode> test) {
        if (test.test(node)) {
            return node;
        }
        for (PlanNode input : node.inputs()) {
            PlanNode found = first(input, test);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private void findMoves(PlanNode node, List<Integer> path, List<Input> inputs) {
        Move move = moves.get(node);
        for (int i = 0; i < node.inputs().size(); i++) {
            PlanNode input = node.inputs().get(i);
            List<Integer> at = new ArrayList<>(path);
            at.add(i);
            boolean moved = (move == Move.MOVE_LEFT && i == 0) || (move == Move.MOVE_RIGHT && i == 1);
            if (move == Move.REPARTITION || moved) {
                List<Integer> keys = node instanceof JoinNode join ? (i == 0 ? join.leftKeys() : join.rightKeys())
                        : ((AggregateNode) node).groupKeys();
                // a side moved to the other is hashed by the one key paired with the other's placement
                inputs.add(new Input(cut(input, Output.REPARTITION, moved ? List.of(keys.get(movedPairs.get(node))) : keys), at, false));
            } else if ((move == Move.BROADCAST_LEFT && i == 0) || (move == Move.BROADCAST_RIGHT && i == 1)) {
                inputs.add(new Input(cut(input, Output.BROADCAST, List.of()), at, false));
            } else if (input instanceof AggregateNode aggregate && mergedEverywhere.contains(aggregate)) {
                inputs.add(new Input(cut(input, Output.MERGE_EVERYWHERE, List.of()), at, true));
            } else {
                findMoves(input, at, inputs);
            }
        }
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
            List<Integer> keys = new ArrayList<>();
            for (int i = 0; i < project.exprs().size(); i++) {
                if (project.exprs().get(i) instanceof ColumnRef ref && input.keys().contains(ref.index())) {
                    keys.add(i);
                }
            }
            return Layout.hashed(keys);
        }
        if (node instanceof JoinNode join) {
            return join(join);
        }
        if (node instanceof AggregateNode aggregate) {
            Layout input = layout(aggregate.input());
            if (input.spread() == Spread.REPLICATED || mergedEverywhere.contains(aggregate)) {
                return Layout.REPLICATED;
            }
            List<Integer> keys = IntStream.range(0, aggregate.groupKeys().size())
                    .filter(g -> input.keys().contains(aggregate.groupKeys().get(g))).boxed().toList();
            if (input.spread() == Spread.HASHED && !keys.isEmpty()) {
                return Layout.hashed(keys);
            }
            if (input.spread() != Spread.HASHED || aggregate.groupKeys().isEmpty() || nodes == 1
                    || mergeable(aggregate) && !wholeOnShards.contains(aggregate)) {
                return Layout.LOCAL;
            }
            // DISTINCT, variances, ...: whole groups brought together by the hash of their keys
            moves.put(aggregate, Move.REPARTITION);
            return Layout.hashed(aggregate.groupKeys().size() == 1 ? 0 : -1);
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
        return Layout.hashed(scan.columns().indexOf(column));
    }

    private Layout join(JoinNode join) {
        Layout left = layout(join.left());
        Layout right = layout(join.right());
        if (left.spread() == Spread.HASHED && right.spread() == Spread.LOCAL
                && keepOnShards(join.right(), KEEPS_LEFT_APART.contains(join.kind()))) {
            right = layout(join.right());
        } else if (right.spread() == Spread.HASHED && left.spread() == Spread.LOCAL
                && keepOnShards(join.left(), join.kind() == JoinKind.INNER || join.kind() == JoinKind.RIGHT)) {
            left = layout(join.left());
        }
        int leftWidth = join.left().schema().size();
        if (left.spread() == Spread.REPLICATED && right.spread() == Spread.REPLICATED) {
            return Layout.REPLICATED;
        }
        if (left.spread() == Spread.HASHED && right.spread() == Spread.REPLICATED && KEEPS_LEFT_APART.contains(join.kind())) {
            return left;
        }
        if (left.spread() == Spread.REPLICATED && right.spread() == Spread.HASHED
                && (join.kind() == JoinKind.INNER || join.kind() == JoinKind.RIGHT)) {
            return Layout.hashed(right.after(leftWidth));
        }
        if (left.spread() != Spread.HASHED || right.spread() != Spread.HASHED) {
            return Layout.LOCAL;
        }
        if (nodes == 1 || coLocated(join, left.keys(), right.keys())) {
            return switch (join.kind()) {
                case INNER -> Layout.hashed(Stream.concat(left.keys().stream(), right.after(leftWidth).stream()).toList());
                case LEFT, SEMI, ANTI -> left;
                case RIGHT -> Layout.hashed(right.after(leftWidth));
                case FULL -> Layout.hashed(-1); // unmatched rows of either side carry NULL in the other's key
            };
        }
        // each way of bringing the matching rows together, by the bytes it sends between the nodes: both
        // sides to the coordinator (null: the join is not shard-local) or hashed by their keys, one side
        // hashed to where the other lies hashed by a key already, or one side sent whole to every other
        // node (where the join kind keeps the other side's rows apart)
        double leftBytes = RowEstimate.bytes(join.left(), this::shardLocal, nodes);
        double rightBytes = RowEstimate.bytes(join.right(), this::shardLocal, nodes);
        double spread = (nodes - 1) / (double) nodes;
        double cost = (leftBytes + rightBytes) * spread;
        Move best = null;
        int leftPair = placedPair(join.leftKeys(), left.keys());
        int rightPair = placedPair(join.rightKeys(), right.keys());
        if (repartitionable(join)) {
            best = Move.REPARTITION;
            if (leftPair >= 0 && rightBytes * spread < cost) {
                best = Move.MOVE_RIGHT;
                cost = rightBytes * spread;
            }
            if (rightPair >= 0 && leftBytes * spread < cost) {
                best = Move.MOVE_LEFT;
                cost = leftBytes * spread;
            }
        }
        if (KEEPS_LEFT_APART.contains(join.kind()) && rightBytes * (nodes - 1) < cost) {
            best = Move.BROADCAST_RIGHT;
            cost = rightBytes * (nodes - 1);
        }
        if (KEEPS_RIGHT_APART.contains(join.kind()) && leftBytes * (nodes - 1) < cost) {
            best = Move.BROADCAST_LEFT;
        }
        if (best == null) {
            return Layout.LOCAL;
        }
        moves.put(join, best);
        return switch (best) {
            case BROADCAST_RIGHT -> left;
            case BROADCAST_LEFT -> Layout.hashed(right.after(leftWidth));
            case MOVE_RIGHT -> {
                movedPairs.put(join, leftPair);
                yield pairLayout(join, leftPair);
            }
            case MOVE_LEFT -> {
                movedPairs.put(join, rightPair);
                yield pairLayout(join, rightPair);
            }
            // the combined hash of several keys names no one column's shard
            case REPARTITION -> join.leftKeys().size() == 1 ? pairLayout(join, 0) : Layout.hashed(-1);
        };
    }

    /** The first pair of a join's equality keys whose key on this side is one of {@code placed}, the columns the side lies hashed by; -1 when none. */
    private static int placedPair(List<Integer> keys, List<Integer> placed) {
        for (int i = 0; i < keys.size(); i++) {
            if (placed.contains(keys.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Where a join's rows lie when both sides lie hashed by equality key pair {@code pair}: by its
     * left key, and for an inner join of one key type by its right key too (a matched row's are equal).
     */
    private static Layout pairLayout(JoinNode join, int pair) {
        int left = join.leftKeys().get(pair);
        int right = join.left().schema().size() + join.rightKeys().get(pair);
        return switch (join.kind()) {
            case INNER -> Layout.hashed(sameType(join, pair) ? List.of(left, right) : List.of(left));
            case LEFT, SEMI, ANTI -> Layout.hashed(left);
            case RIGHT -> Layout.hashed(right);
            case FULL -> Layout.hashed(-1); // unmatched rows of either side carry NULL in the other's key
        };
    }

    /** Whether the two keys of a join's equality pair {@code pair} are of one type (then equal values hashed alike as placed). */
    private static boolean sameType(JoinNode join, int pair) {
        return join.left().schema().type(join.leftKeys().get(pair)).withNullable(true)
                .equals(join.right().schema().type(join.rightKeys().get(pair)).withNullable(true));
    }

    private boolean shardLocal(PlanNode node) {
        return layout(node).spread() == Spread.HASHED;
    }

    /**
     * Whether {@code side} of a join, which is LOCAL only because it merges an aggregate of
     * shard-local rows on the coordinator (under filters and projections), can be made to lie on
     * the shards: a grouped aggregate run whole there (its input repartitioned by its group keys), or,
     * where {@code replicable} (the join keeps the other side's rows apart), one without groups
     * merged on every shard from every shard's partial groups (a scalar subquery's one row). If so,
     * does it and forgets the side's layouts, which then follow.
     */
    private boolean keepOnShards(PlanNode side, boolean replicable) {
        List<PlanNode> above = new ArrayList<>();
        PlanNode node = side;
        while (node instanceof FilterNode || node instanceof ProjectNode) {
            above.add(node);
            node = node.inputs().get(0);
        }
        if (!(node instanceof AggregateNode aggregate) || nodes == 1 || !mergeable(aggregate)
                || layout(aggregate.input()).spread() != Spread.HASHED || wholeOnShards.contains(aggregate)
                || mergedEverywhere.contains(aggregate) || aggregate.groupKeys().isEmpty() && !replicable) {
            return false;
        }
        (aggregate.groupKeys().isEmpty() ? mergedEverywhere : wholeOnShards).add(aggregate);
        layouts.remove(aggregate);
        above.forEach(layouts::remove);
        return true;
    }

    /** Whether the join has equality keys whose equal values hash alike on both sides, so that repartitioning brings them together. */
    private static boolean repartitionable(JoinNode join) {
        for (int i = 0; i < join.leftKeys().size(); i++) {
            if (!ShardPartitioner.hashesAlike(join.left().schema().type(join.leftKeys().get(i)),
                    join.right().schema().type(join.rightKeys().get(i)))) {
                return false;
            }
        }
        return !join.leftKeys().isEmpty();
    }

    /** Whether the join matches rows on columns each side lies hashed by, of one type (so that equal values hashed alike). */
    private static boolean coLocated(JoinNode join, List<Integer> leftPlaced, List<Integer> rightPlaced) {
        for (int i = 0; i < join.leftKeys().size(); i++) {
            if (leftPlaced.contains(join.leftKeys().get(i)) && rightPlaced.contains(join.rightKeys().get(i)) && sameType(join, i)) {
                return true;
            }
        }
        return false;
    }
}
