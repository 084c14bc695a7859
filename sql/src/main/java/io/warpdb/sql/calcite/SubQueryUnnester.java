package io.warpdb.sql.calcite;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.sql.calcite.CorrelatedPushDown.Unnested;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * WarpDB's sub-query unnesting: every sub-query expression ({@link RexSubQuery}) in a filter,
 * projection or join condition becomes a join, inner sub-queries first. A correlated one is
 * computed for all outer values at once by {@link CorrelatedPushDown} (Neumann and Kemper's
 * dependent-join push-down) and joined back on the outer values it reads; an uncorrelated one is
 * joined as it is. The SQL semantics of each kind are written out with aggregates and outer joins:
 * <ul>
 * <li>scalar: a LEFT JOIN on the outer values (a sub-query that may return several rows goes
 * through SINGLE_VALUE, which raises 21000 for a second row);
 * <li>EXISTS: a LEFT JOIN with the distinct outer values that have a row; as a WHERE conjunct,
 * a SEMI (NOT EXISTS: ANTI) join;
 * <li>{@code x IN (...)} and {@code x op SOME (...)}: three-valued, from a match join and the
 * counts of rows and of non-NULL values (TRUE on a match; else FALSE over no rows; else NULL when
 * {@code x} or a value is NULL; else FALSE). As a WHERE conjunct IN is a SEMI join.
 * </ul>
 * Replaces Calcite's SubQueryRemoveRule and RelDecorrelator, whose wrong answers and internal
 * errors on nested and correlated sub-queries are listed in docs/correctness.md.
 */
final class SubQueryUnnester extends RelShuttleImpl {
    private final RexBuilder rexBuilder;
    /** The correlation variables of the nodes whose sub-queries are being unnested, innermost last. */
    private final Deque<Set<CorrelationId>> enclosing = new ArrayDeque<>();

    SubQueryUnnester(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    /**
     * The correlation variables that a node's sub-queries read from the node's input: those it
     * declares, and those of the input's row type that no enclosing node declares. The converter
     * does not always declare them: NULLIF converts its operand twice, and the first copy's
     * sub-query reads a variable no node declares.
     */
    private Set<CorrelationId> correlationsOf(RelNode node, Set<CorrelationId> declared, RelDataType inputType) {
        Set<CorrelationId> ids = new HashSet<>(declared);
        node.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                new RelVisitor() {
                    @Override
                    public void visit(RelNode child, int ordinal, RelNode parent) {
                        child.accept(new RexShuttle() {
                            @Override
                            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                                if (variable.getType().equals(inputType) && enclosing.stream().noneMatch(s -> s.contains(variable.id))) {
                                    ids.add(variable.id);
                                }
                                return variable;
                            }
                        });
                        super.visit(child, ordinal, parent);
                    }
                }.go(subQuery.rel);
                return super.visitSubQuery(subQuery);
            }
        });
        return ids;
    }

    /** {@code inner}, a sub-query of a node reading {@code correlations}, with its own sub-queries unnested. */
    private RelNode unnestedInside(RelNode inner, Set<CorrelationId> correlations) {
        enclosing.addLast(correlations);
        try {
            return inner.accept(this);
        } finally {
            enclosing.removeLast();
        }
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        LogicalFilter visited = (LogicalFilter) super.visit(filter);
        if (!RexUtil.SubQueryFinder.containsSubQuery(visited)) {
            return visited;
        }
        Rewrite rewrite = new Rewrite(visited.getInput(),
                correlationsOf(visited, visited.getVariablesSet(), visited.getInput().getRowType()), 0);
        List<RexNode> kept = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(visited.getCondition())) {
            if (!rewrite.asSemiJoin(conjunct)) {
                kept.add(rewrite.values(conjunct));
            }
        }
        RelNode filtered = LogicalFilter.create(rewrite.current, RexUtil.composeConjunction(rexBuilder, kept));
        return rewrite.narrowed(filtered);
    }

    @Override
    public RelNode visit(LogicalProject project) {
        LogicalProject visited = (LogicalProject) super.visit(project);
        if (!RexUtil.SubQueryFinder.containsSubQuery(visited)) {
            return visited;
        }
        Rewrite rewrite = new Rewrite(visited.getInput(),
                correlationsOf(visited, visited.getVariablesSet(), visited.getInput().getRowType()), 0);
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < visited.getProjects().size(); i++) {
            RexNode value = rewrite.values(visited.getProjects().get(i));
            projects.add(withType(value, visited.getRowType().getFieldList().get(i).getType()));
        }
        return LogicalProject.create(rewrite.current, List.of(), projects, visited.getRowType().getFieldNames(), Set.of());
    }

    @Override
    public RelNode visit(LogicalJoin join) {
        LogicalJoin visited = (LogicalJoin) super.visit(join);
        if (!RexUtil.SubQueryFinder.containsSubQuery(visited)) {
            return visited;
        }
        if (visited.getJoinType() == JoinRelType.INNER) {
            // An inner join's condition is a filter over the pairs.
            RelNode pairs = LogicalJoin.create(visited.getLeft(), visited.getRight(), List.of(), rexBuilder.makeLiteral(true), Set.of(),
                    JoinRelType.INNER);
            return visit(LogicalFilter.create(pairs, visited.getCondition(), com.google.common.collect.ImmutableSet.copyOf(visited.getVariablesSet())));
        }
        // An outer join's condition: each sub-query expression that reads one side only is computed
        // as a column of that side.
        int leftWidth = visited.getLeft().getRowType().getFieldCount();
        int rightWidth = visited.getRight().getRowType().getFieldCount();
        Set<CorrelationId> correlations = correlationsOf(visited, visited.getVariablesSet(), visited.getRowType());
        Rewrite left = new Rewrite(visited.getLeft(), correlations, 0);
        Rewrite right = new Rewrite(visited.getRight(), correlations, leftWidth);
        List<RexNode> values = new ArrayList<>();
        List<Boolean> onRight = new ArrayList<>();
        RexNode condition = visited.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visitedSubQuery = (RexSubQuery) super.visitSubQuery(subQuery);
                ImmutableBitSet read = RelOptUtil.InputFinder.bits(visitedSubQuery.getOperands(), null)
                        .union(ImmutableBitSet.of(CorrelatedPushDown.fieldsRead(visitedSubQuery.rel, correlations)));
                boolean rightOnly = !read.isEmpty() && read.nextSetBit(0) >= leftWidth;
                if (!rightOnly && !read.isEmpty() && read.length() > leftWidth) {
                    throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                            "a sub-query in the ON clause of an outer join that reads both sides is not supported yet");
                }
                RexNode value = rightOnly
                        ? right.value(visitedSubQuery.clone(visitedSubQuery.getType(), RexUtil.shift(visitedSubQuery.getOperands(), -leftWidth)))
                        : left.value(visitedSubQuery);
                values.add(value);
                onRight.add(rightOnly);
                return new RexLocalRef(values.size() - 1, value.getType());
            }
        });
        int newLeftWidth = left.current.getRowType().getFieldCount();
        List<RexNode> rightProjects = new ArrayList<>();
        for (int i = 0; i < rightWidth; i++) {
            rightProjects.add(rexBuilder.makeInputRef(right.current, i));
        }
        List<Integer> rightPosition = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            rightPosition.add(onRight.get(i) ? newLeftWidth + rightProjects.size() : -1);
            if (onRight.get(i)) {
                rightProjects.add(values.get(i));
            }
        }
        RelNode projectedRight = LogicalProject.create(right.current, List.of(), rightProjects, (List<String>) null, Set.of());
        RexNode placed = condition.accept(new RexShuttle() {
            @Override
            public RexNode visitLocalRef(RexLocalRef placeholder) {
                int i = placeholder.getIndex();
                return onRight.get(i) ? new RexInputRef(rightPosition.get(i), placeholder.getType()) : values.get(i);
            }

            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return ref.getIndex() < leftWidth ? ref : new RexInputRef(ref.getIndex() - leftWidth + newLeftWidth, ref.getType());
            }
        });
        RelNode joined = LogicalJoin.create(left.current, projectedRight, List.of(), placed, Set.of(), visited.getJoinType());
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < leftWidth; i++) {
            keep.add(i);
        }
        if (visited.getJoinType().projectsRight()) {
            for (int i = 0; i < rightWidth; i++) {
                keep.add(newLeftWidth + i);
            }
        }
        return RelOptUtil.createProject(joined, keep);
    }

    /** {@code e} cast to {@code type} where their nullability differs (a projection's row type is fixed). */
    private RexNode withType(RexNode e, RelDataType type) {
        return e.getType().equals(type) ? e : rexBuilder.makeCast(type, e, true, false);
    }

    /**
     * The unnesting of the sub-queries of one node: {@code current} starts as the node's input and
     * grows by the joins that compute them, each adding columns after the input's.
     */
    private final class Rewrite {
        private final RelNode input;
        private final Set<CorrelationId> correlations;
        /** Where the input's columns start in the rows the correlation variables describe. */
        private final int fieldOffset;
        RelNode current;

        Rewrite(RelNode input, Set<CorrelationId> correlations, int fieldOffset) {
            this.input = input;
            this.correlations = correlations;
            this.fieldOffset = fieldOffset;
            this.current = input;
        }

        /** {@code rel} (over {@code current}) without the columns this rewrite added. */
        RelNode narrowed(RelNode rel) {
            int width = input.getRowType().getFieldCount();
            if (rel.getRowType().getFieldCount() == width) {
                return rel;
            }
            List<Integer> keep = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                keep.add(i);
            }
            return RelOptUtil.createProject(rel, keep);
        }

        /** {@code e} with each sub-query replaced by its value, a column of {@code current}. */
        RexNode values(RexNode e) {
            return e.accept(new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                    RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                    return value(visited);
                }

                /**
                 * A call over a replaced sub-query typed anew (a value may be NULL where the sub-query
                 * expression was typed NOT NULL, or the reverse), AND / OR flattened.
                 */
                @Override
                public RexNode visitCall(RexCall call) {
                    RexNode visited = super.visitCall(call);
                    if (visited == call || !(visited instanceof RexCall changed)) {
                        return visited;
                    }
                    List<RexNode> operands = changed.getOperands();
                    if (changed.getKind() == SqlKind.AND || changed.getKind() == SqlKind.OR) {
                        operands = RexUtil.flatten(operands, changed.getOperator());
                    }
                    boolean anyNullable = operands.stream().anyMatch(o -> o.getType().isNullable());
                    boolean nullable = switch (changed.getKind()) {
                        case AND, OR -> anyNullable;
                        case CASE -> changed.getType().isNullable() || caseValuesNullable(operands);
                        default -> Strong.policy(changed) == Strong.Policy.ANY ? anyNullable : changed.getType().isNullable();
                    };
                    return changed.clone(rexBuilder.getTypeFactory().createTypeWithNullability(changed.getType(), nullable), operands);
                }
            });
        }

        /** Whether a value of CASE's operands (THEN values and ELSE, not the WHEN conditions) may be NULL. */
        private static boolean caseValuesNullable(List<RexNode> operands) {
            for (int i = 1; i < operands.size(); i += 2) {
                if (operands.get(i).getType().isNullable()) {
                    return true;
                }
            }
            return operands.get(operands.size() - 1).getType().isNullable();
        }

        /** The outer-relative domain push-down of {@code inner}; null when it reads no outer value here. */
        private CorrelatedPushDown pushDown(RelNode inner) {
            Set<CorrelationId> used = new HashSet<>(RelOptUtil.getVariablesUsed(inner));
            used.retainAll(correlations);
            if (used.isEmpty()) {
                return null;
            }
            return new CorrelatedPushDown(rexBuilder, used, CorrelatedPushDown.fieldsRead(inner, used), input, fieldOffset);
        }

        /** The outer values a push-down reads, as columns of {@code current}. */
        private List<RexNode> outerFields(CorrelatedPushDown pushDown) {
            List<RexNode> refs = new ArrayList<>();
            for (int f : pushDown.fields()) {
                refs.add(rexBuilder.makeInputRef(current, f - fieldOffset));
            }
            return refs;
        }

        /**
         * Applies a WHERE conjunct that is [NOT] EXISTS or IN over a sub-query as a SEMI or ANTI join
         * of {@code current} (or, uncorrelated IN, an inner join with the distinct values); false
         * when it is something else.
         */
        boolean asSemiJoin(RexNode conjunct) {
            boolean negated = conjunct.getKind() == SqlKind.NOT;
            RexNode operand = negated ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
            if (!(operand instanceof RexSubQuery subQuery)
                    || !(subQuery.getKind() == SqlKind.EXISTS || (subQuery.getKind() == SqlKind.IN && !negated))
                    || subQuery.getOperands().stream().anyMatch(o -> RexUtil.SubQueryFinder.find(o) != null)) {
                return false;
            }
            RelNode inner = unnestedInside(subQuery.rel, correlations);
            CorrelatedPushDown pushDown = pushDown(inner);
            int width = current.getRowType().getFieldCount();
            List<RexNode> operands = subQuery.getOperands();
            if (pushDown == null) {
                if (subQuery.getKind() == SqlKind.EXISTS) {
                    return false;
                }
                // Joined with the distinct values, the IN takes part in join ordering like any join.
                RelNode values = LogicalAggregate.create(inner, List.of(), ImmutableBitSet.range(operands.size()), null, List.of());
                List<RexNode> matches = new ArrayList<>();
                for (int i = 0; i < operands.size(); i++) {
                    matches.add(equals(operands.get(i), rexBuilder.makeInputRef(values.getRowType().getFieldList().get(i).getType(), width + i)));
                }
                current = LogicalJoin.create(current, values, List.of(), RexUtil.composeConjunction(rexBuilder, matches), Set.of(),
                        JoinRelType.INNER);
                return true;
            }
            Unnested u = pushDown.complete(pushDown.push(inner));
            List<RexNode> conditions = new ArrayList<>();
            conditions.add(domainMatch(pushDown, u, width));
            for (int i = 0; i < operands.size(); i++) {
                conditions.add(equals(operands.get(i), rexBuilder.makeInputRef(u.rel().getRowType().getFieldList().get(i).getType(), width + i)));
            }
            current = LogicalJoin.create(current, u.rel(), List.of(), RexUtil.composeConjunction(rexBuilder, conditions), Set.of(),
                    negated ? JoinRelType.ANTI : JoinRelType.SEMI);
            return true;
        }

        private RexNode domainMatch(CorrelatedPushDown pushDown, Unnested u, int rightOffset) {
            List<RexNode> outer = outerFields(pushDown);
            List<RexNode> conditions = new ArrayList<>();
            for (int i = 0; i < outer.size(); i++) {
                RexNode domain = rexBuilder.makeInputRef(u.rel().getRowType().getFieldList().get(u.domain(i)).getType(), rightOffset + u.domain(i));
                conditions.add(pushDown.sameValue(outer.get(i), domain, u.domainNotNull().get(i)));
            }
            return RexUtil.composeConjunction(rexBuilder, conditions);
        }

        /** The value of a sub-query expression whose operands hold no sub-query any more. */
        RexNode value(RexSubQuery subQuery) {
            RelNode inner = unnestedInside(subQuery.rel, correlations);
            return switch (subQuery.getKind()) {
                case SCALAR_QUERY -> scalar(inner);
                case EXISTS -> exists(inner);
                case IN -> quantified(subQuery.getOperands(), inner, SqlKind.EQUALS);
                case SOME -> quantified(subQuery.getOperands(), inner, ((SqlQuantifyOperator) subQuery.getOperator()).comparisonKind);
                default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, subQuery.getKind() + " sub-queries are not supported yet");
            };
        }

        /** Left-joins {@code right} to {@code current} on {@code condition} (over both, the right side's refs not yet shifted). */
        private int join(RelNode right, RexNode condition, JoinRelType type) {
            int width = current.getRowType().getFieldCount();
            current = LogicalJoin.create(current, right, List.of(), condition, Set.of(), type);
            return width;
        }

        private RexNode scalar(RelNode inner) {
            RelMetadataQuery mq = inner.getCluster().getMetadataQuery();
            Double maxRows = mq.getMaxRowCount(inner);
            boolean atMostOne = maxRows != null && maxRows <= 1;
            CorrelatedPushDown pushDown = pushDown(inner);
            if (pushDown == null) {
                RelNode single = atMostOne ? inner : singleValue(inner, ImmutableBitSet.of());
                Double minRows = mq.getMinRowCount(single);
                boolean exactlyOne = minRows != null && minRows >= 1;
                int at = join(single, rexBuilder.makeLiteral(true), exactlyOne ? JoinRelType.INNER : JoinRelType.LEFT);
                return rexBuilder.makeInputRef(current, at);
            }
            Unnested u = pushDown.push(inner);
            if (u.complete() && !atMostOne) {
                // Grouped by the domain columns, which follow the value.
                RelNode single = singleValue(u.rel(), ImmutableBitSet.range(1, 1 + u.domainNotNull().size()));
                List<RexNode> reordered = new ArrayList<>();
                reordered.add(rexBuilder.makeInputRef(single, u.domainNotNull().size()));
                for (int i = 0; i < u.domainNotNull().size(); i++) {
                    reordered.add(rexBuilder.makeInputRef(single, i));
                }
                u = new Unnested(LogicalProject.create(single, List.of(), reordered, (List<String>) null, Set.of()), 1, u.domainNotNull(), null);
            }
            int width = current.getRowType().getFieldCount();
            int at = join(u.rel(), domainMatch(pushDown, u, width), JoinRelType.LEFT);
            if (u.complete()) {
                return rexBuilder.makeInputRef(current, at);
            }
            List<RexNode> outer = outerFields(pushDown);
            List<Integer> read = pushDown.fields();
            return pushDown.filledIn(current, at, at + u.indicator(), u.emptyRow().get(0), f -> outer.get(read.indexOf(f)));
        }

        /** SINGLE_VALUE of column 0 of {@code rel}, grouped by {@code keys}: keys first, then the value. */
        private RelNode singleValue(RelNode rel, ImmutableBitSet keys) {
            AggregateCall call = AggregateCall.create(SqlStdOperatorTable.SINGLE_VALUE, false, false, false, List.of(), List.of(0), -1,
                    null, RelCollations.EMPTY, keys.cardinality(), rel, null, null);
            return LogicalAggregate.create(rel, List.of(), keys, null, List.of(call));
        }

        private RexNode exists(RelNode inner) {
            CorrelatedPushDown pushDown = pushDown(inner);
            if (pushDown == null) {
                RelNode firstRow = LogicalSort.create(inner, RelCollations.EMPTY, null, rexBuilder.makeExactLiteral(java.math.BigDecimal.ONE));
                int at = join(withTrue(firstRow, 0, 0), rexBuilder.makeLiteral(true), JoinRelType.LEFT);
                return rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rexBuilder.makeInputRef(current, at));
            }
            // The distinct outer values that have a row, each with a TRUE marker.
            Unnested u = pushDown.complete(pushDown.push(inner));
            int k = u.domainNotNull().size();
            RelNode domains = LogicalAggregate.create(u.rel(), List.of(), ImmutableBitSet.range(u.width(), u.width() + k), null, List.of());
            int width = current.getRowType().getFieldCount();
            int at = join(withTrue(domains, 0, k), domainMatch(pushDown, new Unnested(domains, 0, u.domainNotNull(), null), width),
                    JoinRelType.LEFT);
            return rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rexBuilder.makeInputRef(current, at + k));
        }

        /** Columns {@code [from, from + count)} of {@code rel}, then TRUE. */
        private RelNode withTrue(RelNode rel, int from, int count) {
            List<RexNode> projects = new ArrayList<>();
            for (int i = from; i < from + count; i++) {
                projects.add(rexBuilder.makeInputRef(rel, i));
            }
            projects.add(rexBuilder.makeLiteral(true));
            return LogicalProject.create(rel, List.of(), projects, (List<String>) null, Set.of());
        }

        /**
         * {@code x op SOME (inner)} ({@code IN} is {@code = SOME}): TRUE when a value compares TRUE;
         * otherwise FALSE over no rows, NULL when {@code x} or a value is NULL, FALSE else.
         */
        private RexNode quantified(List<RexNode> operands, RelNode inner, SqlKind op) {
            if (operands.size() != 1) {
                throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                        "a row IN sub-query is supported only as a condition of WHERE, not in other expressions yet");
            }
            RexNode x = operands.get(0);
            CorrelatedPushDown pushDown = pushDown(inner);
            Unnested u = pushDown == null ? new Unnested(inner, inner.getRowType().getFieldCount(), List.of(), null)
                    : pushDown.complete(pushDown.push(inner));
            int k = u.domainNotNull().size();
            RelDataType valueType = u.rel().getRowType().getFieldList().get(0).getType();
            ImmutableBitSet domain = ImmutableBitSet.range(u.width(), u.width() + k);
            boolean nullsPossible = x.getType().isNullable() || valueType.isNullable();
            RexNode matched = null;
            if (op == SqlKind.EQUALS) {
                // The match: the distinct non-NULL values per domain value, joined on x = value.
                RelNode values = LogicalFilter.create(u.rel(),
                        rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rexBuilder.makeInputRef(u.rel(), 0)));
                RelNode distinct = LogicalAggregate.create(values, List.of(), ImmutableBitSet.of(0).union(domain), null, List.of());
                RelNode marked = withTrue(distinct, 0, 1 + k);
                int width = current.getRowType().getFieldCount();
                RexNode on = equals(x, rexBuilder.makeInputRef(valueType, width));
                if (pushDown != null) {
                    Unnested shape = new Unnested(marked, 1, u.domainNotNull(), null);
                    on = RexUtil.composeConjunction(rexBuilder, List.of(domainMatch(pushDown, shape, width), on));
                }
                int at = join(marked, on, JoinRelType.LEFT);
                matched = rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_NULL, rexBuilder.makeInputRef(current, at + 1 + k));
                if (!nullsPossible) {
                    return matched;
                }
            }
            // Counts (and, for ordering comparisons, the extreme value), one row per domain value.
            List<AggregateCall> calls = new ArrayList<>();
            calls.add(count(u.rel(), List.of(), k));
            calls.add(count(u.rel(), List.of(0), k));
            if (op != SqlKind.EQUALS) {
                if (op != SqlKind.GREATER_THAN && op != SqlKind.GREATER_THAN_OR_EQUAL) {
                    calls.add(extreme(SqlStdOperatorTable.MAX, u.rel(), k));
                }
                if (op != SqlKind.LESS_THAN && op != SqlKind.LESS_THAN_OR_EQUAL) {
                    calls.add(extreme(SqlStdOperatorTable.MIN, u.rel(), k));
                }
            }
            RelNode counts = LogicalAggregate.create(u.rel(), List.of(), domain, null, calls);
            int width = current.getRowType().getFieldCount();
            int countsAt;
            if (pushDown == null) {
                countsAt = join(counts, rexBuilder.makeLiteral(true), JoinRelType.INNER);
            } else {
                Unnested shape = new Unnested(counts, 0, u.domainNotNull(), null);
                countsAt = join(counts, domainMatch(pushDown, shape, width), JoinRelType.LEFT) + k;
            }
            RexNode rows = rexBuilder.makeInputRef(current, countsAt);
            RexNode nonNullValues = rexBuilder.makeInputRef(current, countsAt + 1);
            if (op != SqlKind.EQUALS) {
                matched = compared(x, op, countsAt + 2);
            }
            // Written with AND / OR over non-NULL conditions and one UNKNOWN rather than as a CASE with
            // NULL branches: Calcite's simplifier loses the NULL of such a CASE under IS NOT TRUE.
            RexNode noRows = rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, rows),
                    rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, rows, rexBuilder.makeZeroLiteral(rows.getType())));
            RexNode nullSeen = rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, x),
                    rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN, nonNullValues, rows));
            RexNode unknown = rexBuilder.makeNullLiteral(rexBuilder.getTypeFactory().createTypeWithNullability(
                    rexBuilder.getTypeFactory().createSqlType(org.apache.calcite.sql.type.SqlTypeName.BOOLEAN), true));
            RexNode matchedOrUnknown = rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_TRUE, matched),
                    rexBuilder.makeCall(SqlStdOperatorTable.AND, nullSeen, unknown));
            return rexBuilder.makeCall(SqlStdOperatorTable.AND, rexBuilder.makeCall(SqlStdOperatorTable.NOT, noRows), matchedOrUnknown);
        }

        /** {@code x op} the extreme values at {@code at} (MAX then MIN, as {@link #quantified} adds them). */
        private RexNode compared(RexNode x, SqlKind op, int at) {
            RexNode first = rexBuilder.makeInputRef(current, at);
            return switch (op) {
                case LESS_THAN -> rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN, x, first);
                case LESS_THAN_OR_EQUAL -> rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, x, first);
                case GREATER_THAN -> rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN, x, first);
                case GREATER_THAN_OR_EQUAL -> rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, x, first);
                case NOT_EQUALS -> rexBuilder.makeCall(SqlStdOperatorTable.OR,
                        rexBuilder.makeCall(SqlStdOperatorTable.NOT_EQUALS, x, first),
                        rexBuilder.makeCall(SqlStdOperatorTable.NOT_EQUALS, x, rexBuilder.makeInputRef(current, at + 1)));
                default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, op + " SOME is not supported yet");
            };
        }

        private AggregateCall count(RelNode rel, List<Integer> args, int groups) {
            return AggregateCall.create(SqlStdOperatorTable.COUNT, false, false, false, List.of(), args, -1, null, RelCollations.EMPTY,
                    groups, rel, null, null);
        }

        private AggregateCall extreme(org.apache.calcite.sql.SqlAggFunction function, RelNode rel, int groups) {
            return AggregateCall.create(function, false, false, false, List.of(), List.of(0), -1, null, RelCollations.EMPTY, groups, rel,
                    null, null);
        }

        private RexNode equals(RexNode a, RexNode b) {
            return rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, a, b);
        }
    }
}
