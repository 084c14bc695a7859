package io.warpdb.exec.gpu.join;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which join conditions the global sort-merge join can sort on, and which pairs of blocks it skips (no device needed). */
class RangeBoundsTest {
    private static final Schema LEFT = GpuJoinTest.schema(DataType.INTEGER, DataType.BIGINT);
    private static final Schema RIGHT = GpuJoinTest.schema(DataType.BIGINT, DataType.BIGINT, DataType.DOUBLE);
    private static final ColumnRef L_VALUE = new ColumnRef(1, DataType.BIGINT);
    private static final ColumnRef R_LOW = new ColumnRef(2, DataType.BIGINT);
    private static final ColumnRef R_HIGH = new ColumnRef(3, DataType.BIGINT);

    @Test
    void anIntervalConditionGivesALowerAndAnUpperBound() {
        // L.c1 BETWEEN R.c0 AND R.c1, the second written with the right column first.
        RangeBounds bounds = RangeBounds.of(join(and(compare(Op.GE, L_VALUE, R_LOW), compare(Op.GT, R_HIGH, L_VALUE)), List.of()));
        assertEquals(List.of(new RangeBounds.Bound(1, 0, false), new RangeBounds.Bound(1, 1, true)), bounds.bounds());
        assertEquals(1, bounds.leftSortColumn());
        assertEquals(0, bounds.rightSortColumn());
        // Left values 10..20 meet right intervals whose low end is at most 20 and high end at least 10.
        RangeBounds.BlockRanges left = ranges(10, 20, 10, 20);
        assertTrue(bounds.mayMeet(left, ranges(0, 20, 10, 30)));
        assertFalse(bounds.mayMeet(left, ranges(21, 40, 25, 50)), "every interval starts above the left values");
        assertFalse(bounds.mayMeet(left, ranges(0, 5, 2, 9)), "every interval ends below the left values");
        assertFalse(bounds.mayMeet(left, ranges(Long.MAX_VALUE, Long.MIN_VALUE, 0, 9)), "a right block whose low ends are all NULL");
    }

    @Test
    void leftBlocksMeetTheRunOfSortedRightBlocksTheirBoundAdmits() {
        // L.c1 < R.c0: a left block meets the right blocks holding a value above its smallest.
        RangeBounds below = RangeBounds.of(join(compare(Op.LT, L_VALUE, R_LOW), List.of()));
        List<RangeBounds.BlockRanges> right = List.of(block(0, 9), block(10, 19), block(20, 29), block(Long.MAX_VALUE, Long.MIN_VALUE));
        List<int[]> met = below.meetings(List.of(block(15, 30), block(40, 50), block(Long.MAX_VALUE, Long.MIN_VALUE), block(-5, 0)), right);
        assertArrayEquals(new int[] {1, 2}, met.get(0));
        assertArrayEquals(new int[] {}, met.get(1));
        assertArrayEquals(new int[] {}, met.get(2), "a left block of NULLs alone");
        assertArrayEquals(new int[] {0, 1, 2}, met.get(3));
        // R.c0 <= L.c1: the blocks holding a value below its largest.
        RangeBounds above = RangeBounds.of(join(compare(Op.LE, R_LOW, L_VALUE), List.of()));
        met = above.meetings(List.of(block(15, 30), block(-9, -1)), right);
        assertArrayEquals(new int[] {0, 1, 2}, met.get(0));
        assertArrayEquals(new int[] {}, met.get(1));
    }

    @Test
    void conditionsWithoutAnOrderedPairOfColumnsHaveNone() {
        assertNull(RangeBounds.of(join(compare(Op.LT, L_VALUE, R_LOW), List.of(1))), "equality keys: the hybrid join");
        assertNull(RangeBounds.of(join(compare(Op.NE, L_VALUE, R_LOW), List.of())));
        assertNull(RangeBounds.of(join(Call.of(Op.OR, DataType.BOOLEAN, compare(Op.LT, L_VALUE, R_LOW), compare(Op.GT, L_VALUE, R_HIGH)),
                List.of())), "a disjunction bounds nothing");
        assertNull(RangeBounds.of(join(compare(Op.LT, new ColumnRef(0, DataType.INTEGER), R_LOW), List.of())), "INTEGER against BIGINT");
        assertNull(RangeBounds.of(join(compare(Op.LT, L_VALUE, new ColumnRef(1, DataType.BIGINT)), List.of())), "two left columns");
        assertNull(RangeBounds.of(join(compare(Op.LT, new ColumnRef(4, DataType.DOUBLE), new ColumnRef(4, DataType.DOUBLE)),
                List.of())), "DOUBLE");
    }

    private static JoinNode join(Expr residual, List<Integer> keys) {
        return new JoinNode(new ValuesNode(LEFT, List.of()), new ValuesNode(RIGHT, List.of()), JoinKind.INNER, keys, keys, residual,
                GpuJoinTest.join(new ValuesNode(LEFT, List.of()), new ValuesNode(RIGHT, List.of()), JoinKind.INNER, keys, keys,
                        residual).schema());
    }

    private static Expr compare(Op op, Expr a, Expr b) {
        return Call.of(op, DataType.BOOLEAN, a, b);
    }

    private static Expr and(Expr a, Expr b) {
        return Call.of(Op.AND, DataType.BOOLEAN, a, b);
    }

    /** The ranges of a block for one bound. */
    private static RangeBounds.BlockRanges block(long min, long max) {
        return new RangeBounds.BlockRanges(new long[] {min}, new long[] {max});
    }

    /** The ranges of a block for the two bounds above: (min, max) of the first bound's column, then of the second's. */
    private static RangeBounds.BlockRanges ranges(long min0, long max0, long min1, long max1) {
        return new RangeBounds.BlockRanges(new long[] {min0, min1}, new long[] {max0, max1});
    }
}
