package io.warpdb.sql.translate;

import io.warpdb.core.plan.PlanNode;
import org.apache.calcite.rel.RelNode;

/** Translates one kind of Calcite relational node into a WarpDB plan node. */
interface NodeTranslator<R extends RelNode> {
    PlanNode translate(R rel, PlanTranslator translator);
}
