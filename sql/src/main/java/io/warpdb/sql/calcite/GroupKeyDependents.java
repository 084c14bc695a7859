package io.warpdb.sql.calcite;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Groups on fewer keys where some group keys determine the others: {@code GROUP BY c_custkey,
 * c_name, c_address, ..., n_name} (TPC-H Q10) becomes {@code GROUP BY c_custkey} with {@code
 * ANY_VALUE(c_name), ANY_VALUE(c_address), ..., ANY_VALUE(n_name)}, under a projection that restores the columns'
 * order; Q18's {@code c_name, c_custkey, o_orderkey, o_orderdate, o_totalprice} groups on
 * {@code o_orderkey} alone ({@code o_custkey = c_custkey} carries the customer). One integer key
 * hashes and compares far cheaper than seven, strings among them.
 *
 * <p>The dependencies are Calcite's ({@code RelMdFunctionalDependency}): a table's primary key
 * determines its columns (Calcite's table keys are exactly the declared primary keys, see
 * {@link CalciteTable}; a merely UNIQUE column is none), inner joins keep both sides'
 * dependencies and add their equalities ({@code c_nationkey = n_nationkey} carries {@code n_name}),
 * projections carry them to expressions. Joins repeat a key's row but never change its columns,
 * so all rows of a group agree on a determined column, and ANY_VALUE of equal values (or of NULLs
 * only) is that value: unlike MIN, it compares nothing (a GPU's MIN of strings sorts the
 * dictionary to rank its values, seconds for TPC-H Q10's customer columns at SF 100). Aggregates over an outer join are left alone (see {@link #hasOuterJoin}). The key
 * is trusted as declared, not checked.
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
     * The group keys that the others determine, by Calcite's functional dependencies, removed
     * one at a time, strings first: those left determine all that were removed, since each
     * removal keeps the removed ones' determinants among (or determined by) those left.
     */
    private static ImmutableBitSet determined(Aggregate aggregate) {
        RelNode input = aggregate.getInput();
        if (hasOuterJoin(input) || !readsKeyedTable(input)) {
            return ImmutableBitSet.of();
        }
        RelMetadataQuery mq = aggregate.getCluster().getMetadataQuery();
        List<RelDataTypeField> fields = input.getRowType().getFieldList();
        List<Integer> candidates = new ArrayList<>(aggregate.getGroupSet().asList());
        candidates.sort(Comparator.comparingInt(key -> -removalGain(fields.get(key).getType())));
        ImmutableBitSet kept = aggregate.getGroupSet();
        for (int key : candidates) {
            ImmutableBitSet rest = kept.clear(key);
            if (!rest.isEmpty() && determines(mq, input, rest, key)) {
                kept = rest;
            }
        }
        return aggregate.getGroupSet().except(kept);
    }

    /**
     * Whether {@code rest} determines column {@code key} of {@code input}. Calcite 1.42's
     * {@code RelMdFunctionalDependency} can fail with an index out of bounds while it maps a
     * projection's dependencies (a shape the fuzzer found, in {@code sql/aggregate/group_by_primary_key.test});
     * a dependency it cannot compute is treated as none, which leaves the aggregate as it was.
     */
    private static boolean determines(RelMetadataQuery mq, RelNode input, ImmutableBitSet rest, int key) {
        try {
            return Boolean.TRUE.equals(mq.determinesSet(input, rest, ImmutableBitSet.of(key)));
        } catch (IndexOutOfBoundsException e) {
            return false;
        }
    }

    /** Whether a table with a declared key is scanned below: without one, no group key can determine a table's columns. */
    private static boolean readsKeyedTable(RelNode rel) {
        if (rel instanceof TableScan scan) {
            List<ImmutableBitSet> keys = scan.getTable().getKeys();
            return keys != null && !keys.isEmpty();
        }
        return rel.getInputs().stream().anyMatch(GroupKeyDependents::readsKeyedTable);
    }

    /** How much grouping sheds by not hashing and comparing a key of this type: strings most. */
    private static int removalGain(RelDataType type) {
        return SqlTypeUtil.inCharFamily(type) ? 2 : SqlTypeUtil.isExactNumeric(type) && !SqlTypeUtil.isDecimal(type) ? 0 : 1;
    }

    /**
     * Whether an outer join is below: Calcite 1.42 keeps both sides' dependencies and the ON
     * equalities across one, which the null-padded rows break (a padded side's NULL key comes with
     * many rows of the other side).
     */
    private static boolean hasOuterJoin(RelNode rel) {
        if (rel instanceof Join join && join.getJoinType().isOuterJoin()) {
            return true;
        }
        return rel.getInputs().stream().anyMatch(GroupKeyDependents::hasOuterJoin);
    }

    /** {@code aggregate} grouped on its keys less {@code determined}, which it takes as ANY_VALUE, in the original column order. */
    private RelNode rewritten(LogicalAggregate aggregate, ImmutableBitSet determined) {
        ImmutableBitSet groupSet = aggregate.getGroupSet().except(determined);
        RelNode input = aggregate.getInput();
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList());
        for (int column : determined) {
            calls.add(AggregateCall.create(SqlStdOperatorTable.ANY_VALUE, false, false, false, List.of(), List.of(column), -1, null,
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
                return aggregate; // ANY_VALUE's type differs (it should not): keep the plan as it was
            }
        }
        return LogicalProject.create(grouped, List.of(), columns, aggregate.getRowType());
    }
}
