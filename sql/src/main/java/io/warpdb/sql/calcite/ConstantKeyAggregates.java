package io.warpdb.sql.calcite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * {@code Aggregate(GROUP BY constants)} without aggregates, over an uncorrelated input, becomes
 * those constants over the input's first row ({@code LIMIT 1}): one row if the input has any,
 * none otherwise. Calcite rewrites every EXISTS into such an aggregate, and its decorrelator,
 * which runs over the whole plan once any sub-query is correlated, drops constant group keys;
 * with no correlation to group by, the aggregate then had no key and returned one row for an
 * empty input, so an uncorrelated EXISTS beside a correlated sub-query was always true.
 */
final class ConstantKeyAggregates extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    ConstantKeyAggregates(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalAggregate aggregate) {
        LogicalAggregate visited = (LogicalAggregate) super.visit(aggregate);
        if (!visited.getAggCallList().isEmpty() || visited.getGroupSets().size() != 1 || visited.getGroupCount() == 0
                || !(visited.getInput() instanceof LogicalProject project)
                || !RelOptUtil.getVariablesUsed(visited).isEmpty()) {
            return visited;
        }
        List<RexNode> keys = new ArrayList<>();
        for (int key : visited.getGroupSet()) {
            if (!(project.getProjects().get(key) instanceof RexLiteral literal)) {
                return visited;
            }
            keys.add(literal);
        }
        RelNode firstRow = LogicalSort.create(project.getInput(), RelCollations.EMPTY, null, rexBuilder.makeExactLiteral(BigDecimal.ONE));
        return LogicalProject.create(firstRow, List.of(), keys, visited.getRowType());
    }
}
