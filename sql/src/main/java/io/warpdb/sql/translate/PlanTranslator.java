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
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexBuilder;

/**
 * Turns an optimized Calcite RelNode tree into a WarpDB plan, node by node, each kind by its
 * own translator. Nodes WarpDB cannot run yet fail with SQLSTATE 0A000 naming the operator.
 */
public final class PlanTranslator {
    /**
     * The kinds of Calcite node WarpDB runs, each with its translator: a new kind is one line
     * here. Calcite's hierarchy is open (each kind has logical and physical subclasses), so a
     * node goes to the first kind it is an instance of.
     */
    private static final List<Kind<?>> KINDS = List.of(
            new Kind<>(TableScan.class, new ScanTranslator()),
            new Kind<>(Values.class, new ValuesTranslator()),
            new Kind<>(Filter.class, new FilterTranslator()),
            new Kind<>(Project.class, new ProjectTranslator()),
            new Kind<>(Aggregate.class, new AggregateTranslator()),
            new Kind<>(Join.class, new JoinTranslator()),
            new Kind<>(Sort.class, new SortTranslator()),
            new Kind<>(SetOp.class, new UnionTranslator()),
            new Kind<>(Window.class, new WindowTranslator()));

    private record Kind<R extends RelNode>(Class<R> relClass, NodeTranslator<R> translator) {
        PlanNode translate(RelNode rel, PlanTranslator planTranslator) {
            return translator.translate(relClass.cast(rel), planTranslator);
        }
    }

    private final RexTranslator rex;

    public PlanTranslator(RexBuilder rexBuilder, List<Object> parameters) {
        this.rex = new RexTranslator(rexBuilder, parameters);
    }

    public RexTranslator rex() {
        return rex;
    }

    public PlanNode translate(RelNode rel) {
        for (Kind<?> kind : KINDS) {
            if (kind.relClass().isInstance(rel)) {
                return kind.translate(rel, this);
            }
        }
        throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, rel.getRelTypeName().replace("Logical", "")
                + " is not supported yet");
    }

    /** The output schema of a node, named as Calcite names its fields. */
    static Schema schemaOf(RelNode rel) {
        return TypeMapping.toSchema(rel.getRowType(), null);
    }
}
