package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * {@code AGG(e) FILTER (WHERE p)} computes {@code e} only for the rows {@code p} keeps, so that
 * {@code SUM(10 / x) FILTER (WHERE x <> 0)} never divides by zero. Calcite computes the
 * arguments and the filter as columns of the projection below the aggregate, for every row;
 * this rewrite makes such an argument column {@code CASE WHEN p THEN e END}, which both
 * executors evaluate lazily. Arguments that are columns or constants cannot fail and stay.
 */
final class FilteredAggregateArguments extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    FilteredAggregateArguments(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalAggregate aggregate) {
        LogicalAggregate visited = (LogicalAggregate) super.visit(aggregate);
        if (!(visited.getInput() instanceof LogicalProject project)) {
            return visited;
        }
        List<RexNode> expressions = new ArrayList<>(project.getProjects());
        List<String> names = new ArrayList<>(project.getRowType().getFieldNames());
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall call : visited.getAggCallList()) {
            if (call.filterArg < 0) {
                calls.add(call);
                continue;
            }
            List<Integer> args = new ArrayList<>();
            for (int arg : call.getArgList()) {
                RexNode e = project.getProjects().get(arg);
                if (e instanceof RexInputRef || e instanceof RexLiteral) {
                    args.add(arg);
                    continue;
                }
                RexNode filter = project.getProjects().get(call.filterArg);
                expressions.add(rexBuilder.makeCall(SqlStdOperatorTable.CASE, filter, e,
                        rexBuilder.makeNullLiteral(rexBuilder.getTypeFactory().createTypeWithNullability(e.getType(), true))));
                names.add("$filtered" + expressions.size());
                args.add(expressions.size() - 1);
                changed = true;
            }
            calls.add(call.withArgList(args));
        }
        if (!changed) {
            return visited;
        }
        LogicalProject guarded = LogicalProject.create(project.getInput(), project.getHints(), expressions, names, project.getVariablesSet());
        return visited.copy(visited.getTraitSet(), guarded, visited.getGroupSet(), visited.getGroupSets(), calls);
    }
}
