package io.warpdb.sql;

import io.warpdb.core.plan.PlanNode;
import io.warpdb.core.plan.ScanNode;
import io.warpdb.storage.CatalogSnapshot;

/**
 * Points a plan kept from an earlier statement at the tables of this statement's snapshot, of
 * the same catalog version: the data is the same, but only the open snapshot keeps its files
 * readable until the statement is closed.
 */
final class SnapshotBinding {
    private SnapshotBinding() {
    }

    /** {@code plan} scanning the snapshot's tables; scans of system tables, which no snapshot holds, stay as they are. */
    static PlanNode rebind(PlanNode plan, CatalogSnapshot snapshot) {
        if (plan instanceof ScanNode scan) {
            return snapshot.table(scan.table().name())
                    .<PlanNode>map(table -> new ScanNode(table, scan.columns(), scan.schema(), scan.predicates()))
                    .orElse(scan);
        }
        if (plan.inputs().isEmpty()) {
            return plan;
        }
        return plan.withInputs(plan.inputs().stream().map(input -> rebind(input, snapshot)).toList());
    }
}
