package io.warpdb.sql.translate;

import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ProjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexNode;

/** Computes one output column per expression; {@link ColumnPruner} later drops unused ones. */
final class ProjectTranslator implements NodeTranslator<Project> {
    @Override
    public PlanNode translate(Project rel, PlanTranslator translator) {
        PlanNode input = translator.translate(rel.getInput());
        List<Expr> exprs = new ArrayList<>();
        for (RexNode e : rel.getProjects()) {
            exprs.add(translator.rex().translate(e));
        }
        return new ProjectNode(input, exprs, PlanTranslator.schemaOf(rel));
    }
}
