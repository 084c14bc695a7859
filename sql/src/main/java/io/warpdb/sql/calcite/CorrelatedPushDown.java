package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The dependent join of Neumann and Kemper ("Unnesting Arbitrary Queries", BTW 2015), pushed
 * down through a correlated sub-query's plan until nothing below it reads the outer row.
 *
 * <p>The outer query's values that the sub-query reads (its free variables, correlation fields
 * {@code F}) become columns: {@link #push} returns the sub-query's rows for <em>every</em> outer
 * value at once, each row followed by the domain columns saying which outer value it belongs to.
 * Where the plan no longer reads the outer row, the domain {@code D} (the distinct {@code F}
 * values of the outer input) is joined in by a cross product; every other operator works per
 * domain value (aggregates group by it, joins match on it, set operations include it).
 *
 * <p>Two refinements of the paper keep plans as small as a hand-written join:
 * <ul>
 * <li>A filter {@code inner = outer.f} over an uncorrelated input takes {@code inner} as the
 * domain column for {@code f} instead of joining {@code D} in. The result then holds rows for
 * more domain values than {@code D} has, which is harmless: every operator works per domain
 * value, and the final join with the outer rows drops the others.
 * <li>An aggregate without GROUP BY returns one row for every outer value, also for those whose
 * input is empty. Instead of joining its result to {@code D}, it is left <em>incomplete</em>:
 * it lacks the rows of empty inputs, whose values ({@link Unnested#emptyRow}) are constants
 * (COUNT 0, other aggregates NULL, and the projections above computed over those). The outer
 * query's LEFT JOIN supplies them where the indicator column is NULL. Operators other than
 * projections complete the result first.
 * </ul>
 */
final class CorrelatedPushDown {
    /**
     * A sub-query's rows for all outer values: its {@code width} columns, then one domain column per
     * free variable (in {@link #fields} order), then, when incomplete, the indicator (NULL for
     * domain values that have no row here and take {@code emptyRow}).
     */
    record Unnested(RelNode rel, int width, List<Boolean> domainNotNull, List<RexNode> emptyRow) {
        boolean complete() {
            return emptyRow == null;
        }

        int domain(int i) {
            return width + i;
        }

        int indicator() {
            return width + domainNotNull.size();
        }
    }

    private final RexBuilder rexBuilder;
    private final RexSimplify simplify;
    private final Set<CorrelationId> correlations;
    /** The correlation fields read, ascending: the free variables. */
    private final List<Integer> fields;
    /** The outer relation the correlation fields are read from, at {@code fields[i] - fieldOffset}. */
    private final RelNode outer;
    private final int fieldOffset;
    private final Map<RelNode, Boolean> correlated = new IdentityHashMap<>();

    CorrelatedPushDown(RexBuilder rexBuilder, Set<CorrelationId> correlations, List<Integer> fields, RelNode outer,
            int fieldOffset) {
        this.rexBuilder = rexBuilder;
        this.simplify = new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, NoConstantReduction.INSTANCE);
        this.correlations = correlations;
        this.fields = fields;
        this.outer = outer;
        this.fieldOffset = fieldOffset;
    }

    /** The correlation fields the sub-query reads, ascending: the order of the domain columns. */
    List<Integer> fields() {
        return fields;
    }

    /** The fields of {@code correlations} that {@code rel}'s expressions read, at any depth, ascending. */
    static List<Integer> fieldsRead(RelNode rel, Set<CorrelationId> correlations) {
        SortedSet<Integer> read = new TreeSet<>();
        RexShuttle collector = fieldCollector(correlations, read);
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(collector);
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return List.copyOf(read);
    }

    /** A shuttle that adds to {@code read} each field of {@code correlations} an expression reads. */
    private static RexShuttle fieldCollector(Set<CorrelationId> correlations, Collection<Integer> read) {
        return new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable variable && correlations.contains(variable.id)) {
                    read.add(access.getField().getIndex());
                }
                return super.visitFieldAccess(access);
            }
        };
    }

    /** {@code rel} for every outer value; see {@link Unnested}. */
    Unnested push(RelNode rel) {
        if (!isCorrelated(rel)) {
            return crossWithDomain(rel, List.of(), Collections.nCopies(fields.size(), null));
        }
        if (rel instanceof Filter filter) {
            return filter(filter);
        }
        if (rel instanceof Project project) {
            return project(project);
        }
        if (rel instanceof Aggregate aggregate) {
            return aggregate(aggregate);
        }
        if (rel instanceof Join join) {
            return join(join);
        }
        if (rel instanceof SetOp setOp) {
            return setOp(setOp);
        }
        if (rel instanceof Sort sort && sort.fetch == null && sort.offset == null) {
            // Order inside a sub-query without LIMIT or OFFSET does not change its result.
            return push(sort.getInput());
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, (rel instanceof Sort ? "LIMIT or OFFSET" : rel.getRelTypeName())
                + " in a correlated sub-query is not supported yet");
    }

    /** {@code u} with a row for every domain value: the domain LEFT JOIN {@code u}, empty rows filled in. */
    Unnested complete(Unnested u) {
        if (u.complete()) {
            return u;
        }
        RelNode domain = domain(fields);
        int k = fields.size();
        List<Boolean> domainNotNull = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            domainNotNull.add(!domain.getRowType().getFieldList().get(i).getType().isNullable());
        }
        RexNode condition = domainMatch(domain, 0, domainNotNull, u, k);
        RelNode joined = LogicalJoin.create(domain, u.rel, List.of(), condition, Set.of(), JoinRelType.LEFT);
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < u.width; i++) {
            projects.add(filledIn(joined, k + i, k + u.indicator(), u.emptyRow.get(i), f -> field(joined, fields.indexOf(f))));
        }
        for (int i = 0; i < k; i++) {
            projects.add(field(joined, i));
        }
        return new Unnested(project(joined, projects, u.rel.getRowType(), u.width), u.width, domainNotNull, null);
    }

    /**
     * The value of column {@code column} of {@code rel}, or {@code emptyValue} (its free variables read
     * through {@code variable}) where {@code indicator} is NULL.
     */
    RexNode filledIn(RelNode rel, int column, int indicator, RexNode emptyValue, IntFunction<RexNode> variable) {
        RexNode value = field(rel, column);
        if (RexUtil.isNullLiteral(emptyValue, true)) {
            return value;
        }
        RexNode empty = rexBuilder.makeCast(value.getType(), replaceVariables(emptyValue, variable), true, false);
        return rexBuilder.makeCall(SqlStdOperatorTable.CASE, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, field(rel, indicator)),
                empty, value);
    }

    /**
     * The condition that the domain columns of {@code u} (the right input, at {@code rightOffset})
     * equal the outer values at {@code leftFields} of the left input: plain equality where one side is
     * never NULL, otherwise NULL-safe equality as two hash keys.
     */
    RexNode domainMatch(RelNode left, int leftStart, List<Boolean> leftNotNull, Unnested u, int rightOffset) {
        List<RexNode> conditions = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            RexNode a = field(left, leftStart + i);
            RexNode b = rexBuilder.makeInputRef(u.rel.getRowType().getFieldList().get(u.domain(i)).getType(), rightOffset + u.domain(i));
            conditions.add(sameValue(a, b, leftNotNull.get(i) || u.domainNotNull.get(i)));
        }
        return RexUtil.composeConjunction(rexBuilder, conditions);
    }

    /** {@code a IS NOT DISTINCT FROM b}, written as equalities a hash join takes as keys. */
    RexNode sameValue(RexNode a, RexNode b, boolean oneNeverNull) {
        RexNode equal = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, a, b);
        if (oneNeverNull || (!a.getType().isNullable() || !b.getType().isNullable())) {
            return equal;
        }
        RexNode zero;
        try {
            zero = rexBuilder.makeZeroLiteral(rexBuilder.getTypeFactory().createTypeWithNullability(a.getType(), false));
        } catch (IllegalArgumentException | AssertionError e) {
            return rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, a, b);
        }
        RexNode bothNull = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, a), rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, b));
        RexNode coalesced = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                rexBuilder.makeCall(SqlStdOperatorTable.COALESCE, a, rexBuilder.makeCast(a.getType(), zero, true, false)),
                rexBuilder.makeCall(SqlStdOperatorTable.COALESCE, b, rexBuilder.makeCast(b.getType(), zero, true, false)));
        return rexBuilder.makeCall(SqlStdOperatorTable.AND, bothNull, coalesced);
    }

    /** {@code e} with the free variables replaced by {@code variable.apply(field)}. */
    RexNode replaceVariables(RexNode e, IntFunction<RexNode> variable) {
        return e.accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && correlations.contains(v.id)) {
                    return variable.apply(access.getField().getIndex());
                }
                return super.visitFieldAccess(access);
            }
        });
    }

    private boolean isCorrelated(RelNode rel) {
        return correlated.computeIfAbsent(rel, r -> !Collections.disjoint(RelOptUtil.getVariablesUsed(r), correlations));
    }

    /** The distinct outer values of the given correlation fields, in that order. */
    private RelNode domain(List<Integer> of) {
        ImmutableBitSet keys = ImmutableBitSet.of(of.stream().map(f -> f - fieldOffset).toList());
        return LogicalAggregate.create(outer, List.of(), keys, null, List.of());
    }

    /**
     * {@code rel} joined with the domain of the free variables that {@code bound} leaves unset
     * ({@code bound[i]}, an expression over {@code rel}, is the domain column of the other ones).
     */
    private Unnested crossWithDomain(RelNode rel, List<RexNode> conditions, List<RexNode> bound) {
        List<Integer> unbound = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            if (bound.get(i) == null) {
                unbound.add(fields.get(i));
            }
        }
        int width = rel.getRowType().getFieldCount();
        RelNode joined = rel;
        if (!unbound.isEmpty()) {
            joined = LogicalJoin.create(rel, domain(unbound), List.of(), rexBuilder.makeLiteral(true), Set.of(), JoinRelType.INNER);
        }
        RelNode source = joined;
        IntFunction<RexNode> variable = f -> {
            int i = fields.indexOf(f);
            return bound.get(i) != null ? bound.get(i) : field(source, width + unbound.indexOf(f));
        };
        if (!conditions.isEmpty()) {
            joined = LogicalFilter.create(joined, replaceVariables(RexUtil.composeConjunction(rexBuilder, conditions), variable));
        }
        List<RexNode> projects = new ArrayList<>();
        List<Boolean> notNull = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            projects.add(field(joined, i));
        }
        for (int i = 0; i < fields.size(); i++) {
            RexNode value = variable.apply(fields.get(i));
            projects.add(value);
            notNull.add(bound.get(i) != null || !value.getType().isNullable());
        }
        return new Unnested(project(joined, projects, rel.getRowType(), width), width, notNull, null);
    }

    private Unnested filter(Filter filter) {
        RelNode input = filter.getInput();
        if (!isCorrelated(input)) {
            // Equalities with an outer value bind its domain column to the inner expression (the rows
            // where that is NULL match no outer value, and `x = x` drops them).
            List<RexNode> bound = new ArrayList<>(Collections.nCopies(fields.size(), null));
            for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
                bindEquality(conjunct, bound);
            }
            return crossWithDomain(input, List.of(filter.getCondition()), bound);
        }
        Unnested in = complete(push(input));
        RexNode condition = replaceVariables(filter.getCondition(), f -> field(in.rel, in.domain(fields.indexOf(f))));
        return new Unnested(LogicalFilter.create(in.rel, condition), in.width, in.domainNotNull, null);
    }

    /** Records {@code inner = outer.f} (or the reverse) in {@code bound} when the two have one type. */
    private void bindEquality(RexNode conjunct, List<RexNode> bound) {
        if (conjunct.getKind() != SqlKind.EQUALS) {
            return;
        }
        List<RexNode> operands = ((RexCall) conjunct).getOperands();
        for (int side = 0; side < 2; side++) {
            RexNode variable = operands.get(side);
            RexNode inner = operands.get(1 - side);
            if (variable instanceof RexFieldAccess access && access.getReferenceExpr() instanceof RexCorrelVariable v
                    && correlations.contains(v.id) && !readsVariables(inner)
                    && SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), inner.getType(), access.getType())) {
                int i = fields.indexOf(access.getField().getIndex());
                if (bound.get(i) == null) {
                    bound.set(i, inner);
                }
                return;
            }
        }
    }

    /** Whether {@code e} reads a free variable. */
    private boolean readsVariables(RexNode e) {
        List<Integer> read = new ArrayList<>();
        e.accept(fieldCollector(correlations, read));
        return !read.isEmpty();
    }

    private Unnested project(Project project) {
        Unnested in = push(project.getInput());
        List<RexNode> projects = new ArrayList<>();
        for (RexNode e : project.getProjects()) {
            projects.add(replaceVariables(e, f -> field(in.rel, in.domain(fields.indexOf(f)))));
        }
        int width = projects.size();
        for (int i = 0; i < fields.size(); i++) {
            projects.add(field(in.rel, in.domain(i)));
        }
        List<RexNode> emptyRow = null;
        if (!in.complete()) {
            projects.add(field(in.rel, in.indicator()));
            emptyRow = new ArrayList<>();
            for (RexNode e : project.getProjects()) {
                RexNode overEmpty = e.accept(new RexShuttle() {
                    @Override
                    public RexNode visitInputRef(RexInputRef ref) {
                        return in.emptyRow.get(ref.getIndex());
                    }
                });
                emptyRow.add(simplify.simplifyPreservingType(overEmpty));
            }
        }
        return new Unnested(project(in.rel, projects, project.getRowType(), width), width, in.domainNotNull, emptyRow);
    }

    private Unnested aggregate(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "GROUPING SETS in a correlated sub-query are not supported yet");
        }
        Unnested in = complete(push(aggregate.getInput()));
        int k = fields.size();
        ImmutableBitSet groups = aggregate.getGroupSet().union(ImmutableBitSet.range(in.width, in.width + k));
        int oldGroups = aggregate.getGroupCount();
        boolean scalar = oldGroups == 0;
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            calls.add(call.adaptTo(in.rel, call.getArgList(), call.filterArg, oldGroups, groups.cardinality()));
        }
        if (scalar) {
            calls.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, false, false, List.of(), List.of(), -1, null,
                    org.apache.calcite.rel.RelCollations.EMPTY, groups.cardinality(), in.rel, null, "$indicator"));
        }
        RelNode grouped = LogicalAggregate.create(in.rel, List.of(), groups, null, calls);
        // Output so far: the old group keys, the domain columns, the aggregates (then the indicator).
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < oldGroups; i++) {
            projects.add(field(grouped, i));
        }
        int aggregates = aggregate.getAggCallList().size();
        for (int i = 0; i < aggregates; i++) {
            projects.add(field(grouped, oldGroups + k + i));
        }
        int width = projects.size();
        for (int i = 0; i < k; i++) {
            projects.add(field(grouped, oldGroups + i));
        }
        List<RexNode> emptyRow = null;
        if (scalar) {
            projects.add(field(grouped, k + aggregates));
            emptyRow = new ArrayList<>();
            for (AggregateCall call : aggregate.getAggCallList()) {
                emptyRow.add(emptyValue(call));
            }
        }
        return new Unnested(project(grouped, projects, aggregate.getRowType(), width), width, in.domainNotNull, emptyRow);
    }

    /** What an aggregate returns over no rows. */
    private RexNode emptyValue(AggregateCall call) {
        return switch (call.getAggregation().getKind()) {
            case COUNT, SUM0 -> rexBuilder.makeZeroLiteral(call.getType());
            case LITERAL_AGG -> call.rexList.get(0);
            default -> rexBuilder.makeNullLiteral(call.getType());
        };
    }

    private Unnested join(Join join) {
        RelNode left = join.getLeft();
        RelNode right = join.getRight();
        JoinRelType type = join.getJoinType();
        boolean leftCorrelated = isCorrelated(left);
        boolean rightCorrelated = isCorrelated(right);
        boolean conditionCorrelated = readsVariables(join.getCondition());
        int leftWidth = left.getRowType().getFieldCount();
        int rightWidth = right.getRowType().getFieldCount();
        int k = fields.size();
        boolean onlyLeft = !rightCorrelated && !conditionCorrelated
                && (type == JoinRelType.INNER || type == JoinRelType.LEFT || !type.projectsRight());
        boolean onlyRight = !leftCorrelated && !conditionCorrelated && (type == JoinRelType.INNER || type == JoinRelType.RIGHT);
        if (onlyLeft) {
            // Rows of the right input pair with every domain value through the left ones.
            Unnested l = complete(push(left));
            RexNode condition = RexUtil.shift(join.getCondition(), leftWidth, k);
            RelNode joined = LogicalJoin.create(l.rel, right, List.of(), condition, Set.of(), type);
            List<RexNode> projects = new ArrayList<>();
            for (int i = 0; i < leftWidth; i++) {
                projects.add(field(joined, i));
            }
            if (type.projectsRight()) {
                for (int i = 0; i < rightWidth; i++) {
                    projects.add(field(joined, leftWidth + k + i));
                }
            }
            int width = projects.size();
            for (int i = 0; i < k; i++) {
                projects.add(field(joined, leftWidth + i));
            }
            return new Unnested(project(joined, projects, join.getRowType(), width), width, l.domainNotNull, null);
        }
        if (onlyRight) {
            Unnested r = complete(push(right));
            RelNode joined = LogicalJoin.create(left, r.rel, List.of(), join.getCondition(), Set.of(), type);
            return new Unnested(joined, leftWidth + rightWidth, r.domainNotNull, null);
        }
        // Both inputs per domain value, matched on it.
        Unnested l = complete(push(left));
        Unnested r = complete(push(right));
        int rightStart = leftWidth + k;
        RexNode condition = RexUtil.shift(join.getCondition(), leftWidth, k);
        condition = replaceVariables(condition, f -> field(l.rel, l.domain(fields.indexOf(f))));
        List<Boolean> notNull = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            boolean leftNotNull = l.domainNotNull.get(i);
            boolean rightNotNull = r.domainNotNull.get(i);
            notNull.add(switch (type) {
                case INNER -> leftNotNull || rightNotNull;
                case RIGHT -> rightNotNull;
                case FULL -> leftNotNull && rightNotNull;
                default -> leftNotNull;
            });
        }
        RexNode match = domainMatch(l.rel, leftWidth, l.domainNotNull, r, rightStart);
        RelNode leftSide = l.rel;
        if (type == JoinRelType.FULL) {
            // A marker tells the left rows from the NULLs an unmatched right row gets.
            List<RexNode> marked = new ArrayList<>(fieldsOf(l.rel));
            marked.add(rexBuilder.makeLiteral(true));
            leftSide = LogicalProject.create(l.rel, List.of(), marked, (List<String>) null, Set.of());
            condition = RexUtil.shift(condition, rightStart, 1);
            match = RexUtil.shift(match, rightStart, 1);
            rightStart++;
        }
        RelNode joined = LogicalJoin.create(leftSide, r.rel, List.of(), RexUtil.composeConjunction(rexBuilder, List.of(condition, match)),
                Set.of(), type);
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < leftWidth; i++) {
            projects.add(field(joined, i));
        }
        if (type.projectsRight()) {
            for (int i = 0; i < rightWidth; i++) {
                projects.add(field(joined, rightStart + i));
            }
        }
        int width = projects.size();
        for (int i = 0; i < k; i++) {
            RexNode leftValue = field(joined, leftWidth + i);
            int rightValue = rightStart + r.domain(i);
            RexNode value = switch (type) {
                case RIGHT -> field(joined, rightValue);
                case FULL -> rexBuilder.makeCall(SqlStdOperatorTable.CASE,
                        rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, field(joined, leftWidth + k)), leftValue, field(joined, rightValue));
                default -> leftValue;
            };
            projects.add(value);
        }
        return new Unnested(project(joined, projects, join.getRowType(), width), width, notNull, null);
    }

    private Unnested setOp(SetOp setOp) {
        List<RelNode> inputs = new ArrayList<>();
        List<Boolean> notNull = new ArrayList<>(Collections.nCopies(fields.size(), true));
        for (RelNode input : setOp.getInputs()) {
            Unnested u = complete(push(input));
            inputs.add(u.rel);
            for (int i = 0; i < notNull.size(); i++) {
                notNull.set(i, notNull.get(i) && u.domainNotNull.get(i));
            }
        }
        return new Unnested(setOp.copy(setOp.getTraitSet(), inputs), setOp.getRowType().getFieldCount(), notNull, null);
    }

    private List<RexNode> fieldsOf(RelNode rel) {
        List<RexNode> refs = new ArrayList<>();
        for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
            refs.add(field(rel, i));
        }
        return refs;
    }

    private RexNode field(RelNode rel, int i) {
        return rexBuilder.makeInputRef(rel, i);
    }

    /**
     * A projection of {@code input}: its first {@code width} columns keep the names of
     * {@code names}' fields, the domain columns (and indicator) are named after the outer fields.
     */
    private RelNode project(RelNode input, List<RexNode> projects, RelDataType names, int width) {
        Map<String, Integer> used = new LinkedHashMap<>();
        List<String> fieldNames = new ArrayList<>();
        List<RelDataTypeField> named = names.getFieldList();
        for (int i = 0; i < projects.size(); i++) {
            String base = i < width ? named.get(i).getName() : "$domain" + (i - width);
            int n = used.merge(base, 1, Integer::sum);
            fieldNames.add(n == 1 ? base : base + "$" + n);
        }
        return LogicalProject.create(input, List.of(), projects, fieldNames, Set.of());
    }
}
