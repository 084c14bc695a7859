package io.warpdb.sql.calcite;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Turns {@code EXISTS}, {@code NOT EXISTS} and {@code IN} sub-queries that are conjuncts of a
 * WHERE clause into SEMI and ANTI joins, before Calcite's general decorrelation sees them.
 * Decorrelation would compute the sub-query for every distinct outer value (a DISTINCT
 * aggregate over the whole inner table joined back, or copies of the outer query when the
 * correlation is not an equality, as in TPC-H Q21); a semi join instead probes the inner rows
 * once and stops at a row's first match. The correlated predicate becomes the join condition:
 * its equalities the hash keys, the rest (e.g. {@code l2.l_suppkey <> l1.l_suppkey}) the
 * residual. {@code NOT IN} is left alone: its NULL semantics are not those of an anti join.
 */
final class SubQueryJoins extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    SubQueryJoins(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalFilter filter) {
        LogicalFilter visited = (LogicalFilter) super.visit(filter);
        RelNode input = visited.getInput();
        List<RexNode> kept = new ArrayList<>();
        List<SemiJoin> joins = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(withSubQueriesRewritten(visited.getCondition()))) {
            SemiJoin join = semiJoinOf(conjunct, input, visited.getVariablesSet());
            if (join == null) {
                kept.add(conjunct);
            } else {
                joins.add(join);
            }
        }
        if (joins.isEmpty()) {
            RexNode condition = RexUtil.composeConjunction(rexBuilder, kept);
            return condition.equals(visited.getCondition()) ? visited : visited.copy(visited.getTraitSet(), input, condition);
        }
        // The plain conjuncts filter first, so that they reach the joins below before any semi join;
        // those that read an enclosing query's row go on top, where an enclosing sub-query's own
        // rewrite (or Calcite's decorrelation) finds its correlation right under its projection.
        List<RexNode> uncorrelated = kept.stream().filter(c -> !RexUtil.containsCorrelation(c)).toList();
        List<RexNode> correlated = kept.stream().filter(RexUtil::containsCorrelation).toList();
        RelNode result = uncorrelated.isEmpty() ? input : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, uncorrelated));
        for (SemiJoin join : joins) {
            result = LogicalJoin.create(result, join.inner, List.of(), join.condition, Set.of(), join.type);
        }
        return correlated.isEmpty() ? result
                : LogicalFilter.create(result, RexUtil.composeConjunction(rexBuilder, correlated), ImmutableSet.copyOf(visited.getVariablesSet()));
    }

    private record SemiJoin(JoinRelType type, RelNode inner, RexNode condition) {
    }

    /**
     * {@code condition} with this rewrite applied inside its sub-queries too, so that a correlated
     * EXISTS nested in a sub-query that stays (an uncorrelated EXISTS, a scalar sub-query) also
     * becomes a semi join: Calcite's decorrelator mishandles such nestings (a nested EXISTS whose
     * inner filter reads only the outer row was decorrelated into TRUE).
     */
    private RexNode withSubQueriesRewritten(RexNode condition) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode rewritten = visited.rel.accept(SubQueryJoins.this);
                return rewritten == visited.rel ? visited : visited.clone(rewritten);
            }
        });
    }

    /** The semi or anti join that {@code conjunct} amounts to over {@code outer}; null when it is not such a sub-query. */
    private SemiJoin semiJoinOf(RexNode conjunct, RelNode outer, Set<CorrelationId> correlations) {
        boolean negated = conjunct.getKind() == SqlKind.NOT;
        RexNode operand = negated ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
        if (!(operand instanceof RexSubQuery subQuery)) {
            return null;
        }
        boolean exists = subQuery.getKind() == SqlKind.EXISTS;
        if (!exists && (subQuery.getKind() != SqlKind.IN || negated)) {
            return null;
        }
        if (RelOptUtil.getVariablesUsed(subQuery.rel).isEmpty()) {
            // Uncorrelated: Calcite's join with the distinct sub-query result takes part in join ordering.
            return null;
        }
        int outerCount = outer.getRowType().getFieldCount();
        Peeled peeled = peel(subQuery.rel, correlations, outerCount);
        if (peeled == null) {
            return null;
        }
        List<RexNode> conditions = new ArrayList<>(peeled.conditions);
        if (!exists) {
            for (int i = 0; i < subQuery.getOperands().size(); i++) {
                conditions.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, subQuery.getOperands().get(i),
                        peeled.outputs.get(i)));
            }
        }
        // Conjuncts over inner columns only filter the inner rows before the join, for SEMI and ANTI alike.
        List<RexNode> joinConditions = new ArrayList<>();
        List<RexNode> innerConditions = new ArrayList<>();
        for (RexNode part : RelOptUtil.conjunctions(RexUtil.composeConjunction(rexBuilder, conditions))) {
            ImmutableBitSet used = RelOptUtil.InputFinder.bits(part);
            if (!used.isEmpty() && used.nextSetBit(0) >= outerCount) {
                innerConditions.add(RexUtil.shift(part, -outerCount));
            } else {
                joinConditions.add(part);
            }
        }
        RelNode inner = innerConditions.isEmpty() ? peeled.inner
                : LogicalFilter.create(peeled.inner, RexUtil.composeConjunction(rexBuilder, innerConditions));
        return new SemiJoin(negated ? JoinRelType.ANTI : JoinRelType.SEMI, inner,
                RexUtil.composeConjunction(rexBuilder, joinConditions));
    }

    /**
     * A sub-query seen as an uncorrelated relation {@code inner} with correlated conditions and
     * output expressions, all over the outer row followed by the inner row.
     */
    private record Peeled(RelNode inner, List<RexNode> conditions, List<RexNode> outputs) {
    }

    /** Peels correlated Filters and Projects off a sub-query; null when the correlation sits anywhere else. */
    private Peeled peel(RelNode rel, Set<CorrelationId> correlations, int outerCount) {
        if (RelOptUtil.getVariablesUsed(rel).isEmpty()) {
            List<RexNode> outputs = new ArrayList<>();
            for (int i = 0; i < rel.getRowType().getFieldCount(); i++) {
                outputs.add(rexBuilder.makeInputRef(rel.getRowType().getFieldList().get(i).getType(), outerCount + i));
            }
            return new Peeled(rel, List.of(), outputs);
        }
        if (rel instanceof LogicalFilter filter && filter.getVariablesSet().isEmpty()) {
            Peeled below = peel(filter.getInput(), correlations, outerCount);
            RexNode condition = below == null ? null : outerSide(filter.getCondition(), below.outputs, correlations);
            if (condition == null) {
                return null;
            }
            List<RexNode> conditions = new ArrayList<>(below.conditions);
            conditions.add(condition);
            return new Peeled(below.inner, conditions, below.outputs);
        }
        if (rel instanceof LogicalProject project && project.getVariablesSet().isEmpty()) {
            Peeled below = peel(project.getInput(), correlations, outerCount);
            if (below == null) {
                return null;
            }
            List<RexNode> outputs = new ArrayList<>();
            for (RexNode e : project.getProjects()) {
                RexNode output = outerSide(e, below.outputs, correlations);
                if (output == null) {
                    return null;
                }
                outputs.add(output);
            }
            return new Peeled(below.inner, below.conditions, outputs);
        }
        return null;
    }

    /**
     * {@code e} (over a relation whose fields are {@code fields}, and the correlation variables)
     * rewritten over the outer row followed by the inner row; null when it reads a correlation
     * variable other than {@code correlations} or holds a sub-query of its own.
     */
    private RexNode outerSide(RexNode e, List<RexNode> fields, Set<CorrelationId> correlations) {
        boolean[] foreign = {false};
        RexNode rewritten = e.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return fields.get(ref.getIndex());
            }

            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && correlations.contains(v.id)) {
                    return rexBuilder.makeInputRef(access.getType(), access.getField().getIndex());
                }
                foreign[0] = true;
                return access;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                foreign[0] = true;
                return subQuery;
            }
        });
        return foreign[0] ? null : rewritten;
    }
}
