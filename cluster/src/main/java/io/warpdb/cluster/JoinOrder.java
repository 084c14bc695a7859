package io.warpdb.cluster;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Inner joins (without residuals) of several inputs, as the inputs in plan order and the equality
 * pairs between their columns, and the same joins built again in another order of units of the
 * inputs: each unit's inputs joined among themselves, then the units left deep, each joined on every
 * pair that ties it to those before it, under a projection that puts the columns back in plan order. The rows are the same in any order that keeps each input tied
 * to one before it. The cluster's planner picks the order ({@link FragmentPlanner#joinOrders}), the
 * coordinator names it with the joins' {@link FragmentPlanner#fingerprint} in the fragments'
 * tickets, and every shard builds the same one ({@link #apply}).
 */
final class JoinOrder {
    private static final String PREFIX = "order ";

    /** The inputs, in plan order; where each one's columns begin in the joins' output; the pairs of equal columns, by output position. */
    private final List<PlanNode> inputs;
    private final int[] offsets;
    private final List<int[]> pairs;
    private final JoinNode root;

    private JoinOrder(JoinNode root, List<PlanNode> inputs, List<int[]> pairs) {
        this.root = root;
        this.inputs = List.copyOf(inputs);
        this.offsets = new int[inputs.size() + 1];
        for (int i = 0; i < inputs.size(); i++) {
            offsets[i + 1] = offsets[i] + inputs.get(i).schema().size();
        }
        this.pairs = List.copyOf(pairs);
    }

    /** The inner joins under {@code node}, which is one; empty when it is none or joins fewer than three inputs. */
    static Optional<JoinOrder> of(PlanNode node) {
        if (!plainInner(node)) {
            return Optional.empty();
        }
        List<PlanNode> inputs = new ArrayList<>();
        List<int[]> pairs = new ArrayList<>();
        collect(node, 0, inputs, pairs);
        return inputs.size() < 3 ? Optional.empty() : Optional.of(new JoinOrder((JoinNode) node, inputs, pairs));
    }

    /** Whether {@code node} is an inner join on equality keys alone, which joins reorder freely. */
    static boolean plainInner(PlanNode node) {
        return node instanceof JoinNode join && join.kind() == JoinKind.INNER && join.residual() == null && !join.leftKeys().isEmpty();
    }

    /** Gathers the inputs of {@code node}'s joins, its output beginning at {@code at} of the whole, and their pairs. */
    private static void collect(PlanNode node, int at, List<PlanNode> inputs, List<int[]> pairs) {
        if (!plainInner(node)) {
            inputs.add(node);
            return;
        }
        JoinNode join = (JoinNode) node;
        int rightAt = at + join.left().schema().size();
        collect(join.left(), at, inputs, pairs);
        collect(join.right(), rightAt, inputs, pairs);
        for (int i = 0; i < join.leftKeys().size(); i++) {
            pairs.add(new int[] {at + join.leftKeys().get(i), rightAt + join.rightKeys().get(i)});
        }
    }

    List<PlanNode> inputs() {
        return inputs;
    }

    /** Which input holds output column {@code column}. */
    private int inputOf(int column) {
        int i = Arrays.binarySearch(offsets, column);
        return i >= 0 ? i : -i - 2;
    }

    /** Whether input {@code input} is tied by a pair to one of {@code joined}. */
    boolean tied(Set<Integer> joined, int input) {
        return pairs.stream().anyMatch(p -> inputOf(p[0]) == input && joined.contains(inputOf(p[1]))
                || inputOf(p[1]) == input && joined.contains(inputOf(p[0])));
    }

    /** Joined inputs: the plan, and the output position (of the whole) of each of its columns. */
    private record Joined(PlanNode plan, List<Integer> columns) {
    }

    private Joined input(int input) {
        List<Integer> columns = new ArrayList<>();
        for (int c = offsets[input]; c < offsets[input + 1]; c++) {
            columns.add(c);
        }
        return new Joined(inputs.get(input), columns);
    }

    /** {@code left} joined with {@code right} on every pair between them; empty when none ties them. */
    private Optional<Joined> join(Joined left, Joined right) {
        List<Integer> leftKeys = new ArrayList<>();
        List<Integer> rightKeys = new ArrayList<>();
        for (int[] pair : pairs) {
            for (int side = 0; side < 2; side++) {
                if (left.columns.contains(pair[side]) && right.columns.contains(pair[1 - side])) {
                    leftKeys.add(left.columns.indexOf(pair[side]));
                    rightKeys.add(right.columns.indexOf(pair[1 - side]));
                }
            }
        }
        if (leftKeys.isEmpty()) {
            return Optional.empty();
        }
        List<Integer> columns = new ArrayList<>(left.columns);
        columns.addAll(right.columns);
        return Optional.of(new Joined(new JoinNode(left.plan, right.plan, JoinKind.INNER, leftKeys, rightKeys, null,
                left.plan.schema().concat(right.plan.schema())), columns));
    }

    /** The inputs of each unit joined left deep, then the units so; empty when an input or unit is tied to none before it. */
    private Optional<Joined> joined(List<List<Integer>> units) {
        Joined whole = null;
        for (List<Integer> unit : units) {
            Joined part = input(unit.get(0));
            for (int i = 1; i < unit.size() && part != null; i++) {
                part = join(part, input(unit.get(i))).orElse(null);
            }
            whole = part == null ? null : whole == null ? part : join(whole, part).orElse(null);
            if (whole == null) {
                return Optional.empty();
            }
        }
        return Optional.of(whole);
    }

    /**
     * The joins of the units of inputs so far (each unit's inputs joined among themselves first, then
     * to those before it); empty when one is tied to none before it.
     */
    Optional<PlanNode> prefix(List<List<Integer>> units) {
        return joined(units).map(Joined::plan);
    }

    /** All the inputs joined by {@code units}, their columns in plan order; empty when one is tied to none before it. */
    Optional<PlanNode> build(List<List<Integer>> units) {
        Optional<Joined> joined = joined(units);
        if (joined.isEmpty()) {
            return Optional.empty();
        }
        int[] position = new int[offsets[inputs.size()]];
        Arrays.setAll(position, c -> joined.get().columns.indexOf(c));
        return Optional.of(inOrder(joined.get().plan, position, root.schema()));
    }

    /**
     * {@code joined}, which holds column c of {@code schema} at {@code position[c]}, under a projection that
     * puts the columns in {@code schema}'s order; itself where they are in it.
     */
    static PlanNode inOrder(PlanNode joined, int[] position, Schema schema) {
        List<Expr> back = new ArrayList<>();
        boolean same = true;
        for (int c = 0; c < position.length; c++) {
            same &= position[c] == c;
            back.add(new ColumnRef(position[c], schema.type(c)));
        }
        return same ? joined : new ProjectNode(joined, back, schema);
    }

    /** What names the order {@code units} of the joins whose fingerprint (as planned) is {@code fingerprint}. */
    static String name(List<List<Integer>> units, String fingerprint) {
        return PREFIX + units.stream().map(u -> u.stream().map(String::valueOf).collect(Collectors.joining("+")))
                .collect(Collectors.joining(",")) + " " + fingerprint;
    }

    private static List<List<Integer>> units(String text) {
        return Arrays.stream(text.split(",")).map(u -> Arrays.stream(u.split("\\+")).map(Integer::valueOf).toList()).toList();
    }

    /**
     * {@code plan} with the joins {@code names} names ({@link #name}: by fingerprints of the joins as
     * planned) built in the named order; the same plan when none is named. Outer joins first, then
     * the joins within their inputs, as the planner chose them.
     */
    static PlanNode apply(PlanNode plan, Set<String> names) {
        if (names.stream().noneMatch(n -> n.startsWith(PREFIX)) || plan.inputs().isEmpty()) {
            return plan;
        }
        Optional<JoinOrder> joins = of(plan);
        if (joins.isPresent()) {
            String fingerprint = FragmentPlanner.fingerprint(plan);
            for (String name : names) {
                int end = name.indexOf(' ', PREFIX.length());
                if (!name.startsWith(PREFIX) || end < 0) {
                    continue;
                }
                List<List<Integer>> order = units(name.substring(PREFIX.length(), end));
                if (name.equals(name(order, fingerprint))) {
                    List<PlanNode> inputs = joins.get().inputs.stream().map(input -> apply(input, names)).toList();
                    return new JoinOrder(joins.get().root, inputs, joins.get().pairs).build(order)
                            .orElseThrow(() -> new IllegalStateException("join order " + order + " leaves an input tied to none before it"));
                }
            }
        }
        return plan.withInputsIfChanged(plan.inputs().stream().map(input -> apply(input, names)).toList());
    }
}
