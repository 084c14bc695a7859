package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexTableInputRef;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Groups on a table's primary key alone where the other group keys are its columns: {@code GROUP
 * BY c_custkey, c_name, c_address, ...} (TPC-H Q10) becomes {@code GROUP BY c_custkey} with
 * {@code MIN(c_name), MIN(c_address), ...}, under a projection that restores the columns' order
 * (Q18's {@code o_orderkey, o_orderdate, o_totalprice, c_custkey, c_name} groups on the two keys).
 * One long key hashes and compares far cheaper than seven, strings among them.
 *
 * <p>Correct because the key determines the columns of its row: a group key qualifies when
 * Calcite's expression lineage traces it to exactly one expression over the columns of the same
 * table instance (the same scan) as the whole key, whose columns each trace to that scan's key
 * column. Joins may repeat that row (the key is not unique after them) but never change its
 * columns, so all rows of a group agree on them, and MIN of equal values (or of NULLs only) is
 * that value. Lineage stops at what could mix rows: the null-padded side of an outer join, set
 * operations, aggregate results. Only the declared primary key counts (Calcite's table keys are
 * exactly that, see {@link CalciteTable}), so a merely UNIQUE column never does; it is trusted,
 * not checked.
 */
final class GroupKeyDependents extends RelShuttleImpl {
    private final RexBuilder rexBuilder;

    GroupKeyDependents(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    @Override
    public RelNode visit(LogicalAggregate aggregate) {
        LogicalAggregate visited = (LogicalAggregate) super.visit(aggregate);
        if (visited.getGroupType() != Aggregate.Group.SIMPLE || visited.getGroupCount() < 2) {
            return visited;
        }
        ImmutableBitSet determined = determined(visited);
        return determined.isEmpty() ? visited : rewritten(visited, determined);
    }

    /**
     * The group keys that the primary keys of scans, each all group keys, determine (the keys' own
     * columns excluded). Those of different scans are apart, as their columns are: grouping on
     * every such key is grouping on all of them.
     */
    private static ImmutableBitSet determined(Aggregate aggregate) {
        RelMetadataQuery mq = aggregate.getCluster().getMetadataQuery();
        RelNode input = aggregate.getInput();
        List<Integer> keys = aggregate.getGroupSet().asList();
        List<RexNode> lineage = new ArrayList<>();
        for (int key : keys) {
            Set<RexNode> origins = mq.getExpressionLineage(input, RexInputRef.of(key, input.getRowType()));
            lineage.add(origins != null && origins.size() == 1 && RexUtil.isDeterministic(origins.iterator().next())
                    ? origins.iterator().next() : null);
        }
        ImmutableBitSet determined = ImmutableBitSet.of();
        for (RexNode origin : lineage) {
            if (!(origin instanceof RexTableInputRef column) || column.getTableRef().getTable().getKeys() == null) {
                continue;
            }
            RexTableInputRef.RelTableRef scan = column.getTableRef();
            for (ImmutableBitSet primaryKey : scan.getTable().getKeys()) {
                determined = determined.union(determinedBy(scan, primaryKey, keys, lineage));
            }
        }
        return determined;
    }

    /**
     * The group keys (input ordinals) that {@code primaryKey} of {@code scan} determines when every
     * column of that key is a group key; else none.
     */
    private static ImmutableBitSet determinedBy(RexTableInputRef.RelTableRef scan, ImmutableBitSet primaryKey,
            List<Integer> keys, List<RexNode> lineage) {
        ImmutableBitSet.Builder keyColumns = ImmutableBitSet.builder();
        ImmutableBitSet.Builder dependents = ImmutableBitSet.builder();
        for (int i = 0; i < keys.size(); i++) {
            RexNode origin = lineage.get(i);
            if (origin instanceof RexTableInputRef column && column.getTableRef().equals(scan)
                    && primaryKey.get(column.getIndex())) {
                keyColumns.set(column.getIndex());
            } else if (origin != null && readsOnly(origin, scan)) {
                dependents.set(keys.get(i));
            }
        }
        return keyColumns.build().equals(primaryKey) ? dependents.build() : ImmutableBitSet.of();
    }

    /** Whether {@code expression} reads columns of {@code scan} and of no other table instance. */
    private static boolean readsOnly(RexNode expression, RexTableInputRef.RelTableRef scan) {
        Set<RexTableInputRef.RelTableRef> tables = RexUtil.gatherTableReferences(List.of(expression));
        return tables.size() == 1 && tables.contains(scan);
    }

    /** {@code aggregate} grouped on its keys less {@code determined}, which it takes as MIN, in the original column order. */
    private RelNode rewritten(LogicalAggregate aggregate, ImmutableBitSet determined) {
        ImmutableBitSet groupSet = aggregate.getGroupSet().except(determined);
        RelNode input = aggregate.getInput();
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList());
        for (int column : determined) {
            calls.add(AggregateCall.create(SqlStdOperatorTable.MIN, false, false, false, List.of(), List.of(column), -1, null,
                    RelCollations.EMPTY, groupSet.cardinality(), input, null, input.getRowType().getFieldNames().get(column)));
        }
        LogicalAggregate grouped = aggregate.copy(aggregate.getTraitSet(), input, groupSet, null, calls);
        List<RexNode> columns = new ArrayList<>();
        int originalCalls = aggregate.getAggCallList().size();
        for (int key : aggregate.getGroupSet()) {
            int at = groupSet.get(key) ? groupSet.indexOf(key)
                    : groupSet.cardinality() + originalCalls + determined.indexOf(key);
            columns.add(rexBuilder.makeInputRef(grouped, at));
        }
        for (int call = 0; call < originalCalls; call++) {
            columns.add(rexBuilder.makeInputRef(grouped, groupSet.cardinality() + call));
        }
        for (int i = 0; i < columns.size(); i++) {
            if (!columns.get(i).getType().equals(aggregate.getRowType().getFieldList().get(i).getType())) {
                return aggregate; // MIN's type differs (it should not): keep the plan as it was
            }
        }
        return LogicalProject.create(grouped, List.of(), columns, aggregate.getRowType());
    }
}
