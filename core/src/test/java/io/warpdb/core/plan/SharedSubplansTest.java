package io.warpdb.core.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which repeated subplans {@link SharedSubplans} shares: equal ones worth keeping, the largest first. */
class SharedSubplansTest {
    private static final Schema ONE_INT = Schema.of(new Field("x", DataType.INTEGER));
    private static final ColumnRef X = new ColumnRef(0, DataType.INTEGER);

    private static ValuesNode values(long v) {
        return new ValuesNode(ONE_INT, List.of(List.of(Literal.ofLong(v, DataType.INTEGER)), List.of(Literal.ofLong(v + 1,
                DataType.INTEGER))));
    }

    private static AggregateNode groupBy(PlanNode input) {
        return new AggregateNode(input, List.of(0), List.of(), ONE_INT);
    }

    private static UnionNode union(PlanNode... inputs) {
        return new UnionNode(List.of(inputs), ONE_INT);
    }

    private static JoinNode join(PlanNode left, PlanNode right) {
        return new JoinNode(left, right, JoinKind.SEMI, List.of(0), List.of(0), null, ONE_INT);
    }

    @Test
    void equalAggregatesBecomeOneSharedNode() {
        PlanNode plan = union(groupBy(values(1)), new FilterNode(groupBy(values(1)), Literal.ofBoolean(true)));
        PlanNode shared = SharedSubplans.share(plan);
        SharedNode first = assertInstanceOf(SharedNode.class, shared.inputs().get(0));
        assertSame(first, shared.inputs().get(1).inputs().get(0));
        assertEquals(new SharedNode(1, groupBy(values(1))), first);
    }

    @Test
    void threeUsesShareOneResult() {
        PlanNode agg = groupBy(new FilterNode(values(1), Literal.ofBoolean(true)));
        PlanNode shared = SharedSubplans.share(union(agg, agg, groupBy(agg)));
        SharedNode one = new SharedNode(1, agg);
        assertEquals(union(one, one, groupBy(one)), shared);
    }

    @Test
    void scansFiltersAndProjectionsAloneAreComputedAgain() {
        PlanNode cheap = new ProjectNode(new FilterNode(values(1), Literal.ofBoolean(true)), List.of(X), ONE_INT);
        PlanNode plan = union(cheap, cheap, union(values(2), values(2)), union(values(2), values(2)));
        assertEquals(plan, SharedSubplans.share(plan));
    }

    @Test
    void differentSubplansStayApart() {
        PlanNode plan = union(groupBy(values(1)), groupBy(values(2)), groupBy(new FilterNode(values(1), Literal.ofBoolean(false))));
        assertEquals(plan, SharedSubplans.share(plan));
    }

    @Test
    void theLargestRepeatedSubplanIsShared() {
        PlanNode sort = new SortNode(groupBy(values(1)), List.of(new SortKey(0, false, false)), 0, 1);
        PlanNode shared = SharedSubplans.share(union(sort, sort));
        SharedNode one = new SharedNode(1, sort);
        assertEquals(union(one, one), shared);
    }

    @Test
    void aSubplanUsedInsideASharedOneAndElsewhereIsSharedToo() {
        PlanNode agg = groupBy(values(1));
        PlanNode pair = join(agg, agg);
        PlanNode shared = SharedSubplans.share(union(pair, pair, agg));
        SharedNode inner = new SharedNode(2, agg);
        SharedNode outer = new SharedNode(1, join(inner, inner));
        assertEquals(union(outer, outer, inner), shared);
    }

    @Test
    void sharingIsIdempotentAndUndone() {
        PlanNode agg = groupBy(values(1));
        PlanNode plan = union(join(agg, agg), join(agg, agg));
        PlanNode shared = SharedSubplans.share(plan);
        assertEquals(shared, SharedSubplans.share(shared));
        assertEquals(plan, SharedSubplans.unshare(shared));
    }
}
