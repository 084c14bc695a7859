package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.plan.PlanNode;
import io.warpdb.sql.calcite.TypeMapping;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexBuilder;

/**
 * Turns an optimized Calcite RelNode tree into a WarpDB plan, node by node, each kind by its
 * own translator. Nodes WarpDB cannot run yet fail with SQLSTATE 0A000 naming the operator.
 */
public final class PlanTranslator {
    private static final ScanTranslator SCAN = new ScanTranslator();
    private static final ValuesTranslator VALUES = new ValuesTranslator();
    private static final FilterTranslator FILTER = new FilterTranslator();
    private static final ProjectTranslator PROJECT = new ProjectTranslator();
    private static final AggregateTranslator AGGREGATE = new AggregateTranslator();
    private static final JoinTranslator JOIN = new JoinTranslator();
    private static final SortTranslator SORT = new SortTranslator();
    private static final UnionTranslator SET_OP = new UnionTranslator();

    private final RexTranslator rex;

    public PlanTranslator(RexBuilder rexBuilder, List<Object> parameters) {
        this.rex = new RexTranslator(rexBuilder, parameters);
    }

    public RexTranslator rex() {
        return rex;
    }

    public PlanNode translate(RelNode rel) {
        if (rel instanceof TableScan scan) {
            return SCAN.translate(scan, this);
        }
        if (rel instanceof Values values) {
            return VALUES.translate(values, this);
        }
        if (rel instanceof Filter filter) {
            return FILTER.translate(filter, this);
        }
        if (rel instanceof Project project) {
            return PROJECT.translate(project, this);
        }
        if (rel instanceof Aggregate aggregate) {
            return AGGREGATE.translate(aggregate, this);
        }
        if (rel instanceof Join join) {
            return JOIN.translate(join, this);
        }
        if (rel instanceof Sort sort) {
            return SORT.translate(sort, this);
        }
        if (rel instanceof SetOp setOp) {
            return SET_OP.translate(setOp, this);
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, rel.getRelTypeName().replace("Logical", "")
                + " is not supported yet");
    }

    /** The output schema of a node, named as Calcite names its fields. */
    static Schema schemaOf(RelNode rel) {
        return TypeMapping.toSchema(rel.getRowType(), null);
    }
}
