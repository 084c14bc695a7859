package io.warpdb.core.plan;

/**
 * One method per kind of {@link PlanNode}, so that a consumer of plans handles every kind: a new
 * kind added to the sealed hierarchy fails to compile until each visitor says what it does with it.
 * {@link PlanNode#accept} calls the method of the node's kind.
 *
 * @param <R> what the visitor makes of a node
 */
public interface PlanVisitor<R> {
    R visitScan(ScanNode scan);

    R visitValues(ValuesNode values);

    R visitFilter(FilterNode filter);

    R visitProject(ProjectNode project);

    R visitAggregate(AggregateNode aggregate);

    R visitJoin(JoinNode join);

    R visitSort(SortNode sort);

    R visitUnion(UnionNode union);

    R visitSetOp(SetOpNode setOp);

    R visitWindow(WindowNode window);

    R visitShared(SharedNode shared);
}
