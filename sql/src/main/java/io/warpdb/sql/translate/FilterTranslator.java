package io.warpdb.sql.translate;

import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import org.apache.calcite.rel.core.Filter;

final class FilterTranslator implements NodeTranslator<Filter> {
    @Override
    public PlanNode translate(Filter rel, PlanTranslator translator) {
        return new FilterNode(translator.translate(rel.getInput()), translator.rex().translate(rel.getCondition()));
    }
}
