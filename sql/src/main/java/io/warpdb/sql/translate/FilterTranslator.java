package io.warpdb.sql.translate;

import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import org.apache.calcite.rel.core.Filter;

final class FilterTranslator implements NodeTranslator<Filter> {
    @Override
    public PlanNode translate(Filter rel, PlanTranslator translator) {
        PlanNode input = translator.translate(rel.getInput());
        FilterNode filter = new FilterNode(input, translator.rex().translate(rel.getCondition()));
        return input instanceof ScanNode scan ? ScanPredicates.pushInto(filter, scan) : filter;
    }
}
