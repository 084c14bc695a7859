package io.warpdb.sql.calcite;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's metadata with one contract enforced: {@link #getTableOrigin} names a table only
 * for "a single table, optionally with filtering and projection", as its documentation says.
 * Calcite's implementation also looks through aggregates (it follows the first column's
 * origin), and LoptOptimizeJoinRule's self-join detection relies on it: two grouped
 * sub-queries over one table, joined on a key unique within each of them, were taken for a
 * self-join on a unique key and the right side's columns were read from the left side, whose
 * rows are others. With tables and their filters and projections only, a key unique in a
 * factor is unique in the table (an aggregate is the only other source of uniqueness), so
 * the two sides' matching rows are the same table rows and the rule's column mapping holds.
 */
public final class WarpMetadataQuery extends RelMetadataQuery {
    /**
     * Handlers from {@code provider} itself: the constructor without one reads the handlers
     * Calcite keeps per thread, which only the thread that made the planner has, and a prepared
     * statement's plan is bound on whichever thread runs it.
     */
    public WarpMetadataQuery(RelMetadataProvider provider) {
        super(JaninoRelMetadataProvider.of(provider));
    }

    @Override
    public @Nullable RelOptTable getTableOrigin(RelNode rel) {
        return isTableWithFiltersAndProjections(rel) ? super.getTableOrigin(rel) : null;
    }

    private static boolean isTableWithFiltersAndProjections(RelNode rel) {
        RelNode node = rel;
        while (true) {
            if (node instanceof HepRelVertex vertex) {
                node = vertex.getCurrentRel();
            } else if (node instanceof TableScan) {
                return true;
            } else if (node instanceof Project || node instanceof Filter || node instanceof Calc) {
                node = node.getInput(0);
            } else {
                return false;
            }
        }
    }
}
