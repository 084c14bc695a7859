package io.warpdb.exec.gpu.join;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Exprs;
import io.warpdb.core.expr.Op;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.sort.SortedRunMerge;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The range conditions of a join without equality keys: conjuncts {@code l.a < r.b} (any of <, <=,
 * >, >=, either side first) between a left and a right column of one ordered integer type
 * (INTEGER, BIGINT, DATE, TIMESTAMP, narrow DECIMAL of one scale). A pair of row blocks whose
 * columns' value ranges cannot satisfy one of them cannot produce a row, so the global sort-merge
 * join ({@link GlobalSortMergeJoin}) never joins it. Strictness is ignored: the test is a
 * necessary condition, the in-core join applies the whole condition.
 */
record RangeBounds(List<Bound> bounds) {
    /** {@code left <= right} when {@code leftAtMost}, else {@code left >= right} (columns of each input). */
    record Bound(int leftColumn, int rightColumn, boolean leftAtMost) {
    }

    /** The value range of each column a bound reads, over one block's non-NULL values; {@code min > max} when it has none. */
    record BlockRanges(long[] min, long[] max) {
    }

    /** The node's range conditions; null when its condition has none (or it has equality keys). */
    static RangeBounds of(JoinNode node) {
        if (!node.leftKeys().isEmpty() || node.residual() == null) {
            return null;
        }
        int leftCount = node.left().schema().size();
        List<Expr> conjuncts = new ArrayList<>();
        Exprs.flatten(node.residual(), Op.AND, conjuncts);
        List<Bound> bounds = new ArrayList<>();
        for (Expr conjunct : conjuncts) {
            if (!(conjunct instanceof Call call) || call.args().size() != 2
                    || !(call.arg(0) instanceof ColumnRef x) || !(call.arg(1) instanceof ColumnRef y)
                    || !ordered(x.type(), y.type())) {
                continue;
            }
            Boolean xAtMost = switch (call.op()) {
                case LT, LE -> Boolean.TRUE;
                case GT, GE -> Boolean.FALSE;
                default -> null;
            };
            if (xAtMost == null) {
                continue;
            }
            if (x.index() < leftCount && y.index() >= leftCount) {
                bounds.add(new Bound(x.index(), y.index() - leftCount, xAtMost));
            } else if (y.index() < leftCount && x.index() >= leftCount) {
                bounds.add(new Bound(y.index(), x.index() - leftCount, !xAtMost));
            }
        }
        return bounds.isEmpty() ? null : new RangeBounds(List.copyOf(bounds));
    }

    /** Whether two columns compare as the same kind of 64-bit integers. */
    private static boolean ordered(DataType a, DataType b) {
        TypeKind kind = a.kind();
        boolean integral = kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.DATE
                || kind == TypeKind.TIMESTAMP || (kind == TypeKind.DECIMAL && !a.isWideDecimal());
        return integral && b.kind() == kind && a.scale() == b.scale() && a.isWideDecimal() == b.isWideDecimal();
    }

    /** The left column both inputs are sorted on (the first bound's), and the right one. */
    int leftSortColumn() {
        return bounds.get(0).leftColumn();
    }

    int rightSortColumn() {
        return bounds.get(0).rightColumn();
    }

    /** The value ranges, in a left block when {@code left}, of the columns the bounds read there. */
    BlockRanges ranges(HostTable block, boolean left) {
        long[] min = new long[bounds.size()];
        long[] max = new long[bounds.size()];
        for (int i = 0; i < bounds.size(); i++) {
            int column = left ? bounds.get(i).leftColumn() : bounds.get(i).rightColumn();
            DataType type = block.schema().type(column);
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (Batch batch : block.batches()) {
                FieldVector v = batch.vector(column);
                for (int row = 0; row < batch.rowCount(); row++) {
                    if (!v.isNull(row)) {
                        long value = SortedRunMerge.orderedValue(v, type, row);
                        lo = Math.min(lo, value);
                        hi = Math.max(hi, value);
                    }
                }
            }
            min[i] = lo;
            max[i] = hi;
        }
        return new BlockRanges(min, max);
    }

    /**
     * For each left block, the right blocks (ascending indexes) it may meet ({@link #mayMeet}).
     * The right blocks are sorted on the first bound's column, so the blocks that bound admits
     * are a run found by binary search (a suffix of the blocks with values for {@code l <= r}, a
     * prefix for {@code l >= r}); only those are tested against the other bounds.
     */
    List<int[]> meetings(List<BlockRanges> left, List<BlockRanges> right) {
        int withValues = 0;
        while (withValues < right.size() && right.get(withValues).min()[0] <= right.get(withValues).max()[0]) {
            withValues++;  // NULLs sort last: the blocks of NULLs alone end the list
        }
        boolean leftAtMost = bounds.get(0).leftAtMost();
        List<int[]> meetings = new ArrayList<>();
        for (BlockRanges l : left) {
            int from = 0;
            int to = withValues;
            if (leftAtMost) {
                from = firstBlock(right, withValues, j -> right.get(j).max()[0] >= l.min()[0]);
            } else {
                to = firstBlock(right, withValues, j -> right.get(j).min()[0] > l.max()[0]);
            }
            List<Integer> met = new ArrayList<>();
            for (int j = from; j < to; j++) {
                if (mayMeet(l, right.get(j))) {
                    met.add(j);
                }
            }
            meetings.add(met.stream().mapToInt(Integer::intValue).toArray());
        }
        return meetings;
    }

    /** The first block below {@code count} where {@code test}, false then true along the blocks, holds; {@code count} if none. */
    private static int firstBlock(List<BlockRanges> blocks, int count, java.util.function.IntPredicate test) {
        int lo = 0;
        int hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (test.test(mid)) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** Whether a row of a left block with ranges {@code l} may satisfy every bound with a row of a right block with ranges {@code r}. */
    boolean mayMeet(BlockRanges l, BlockRanges r) {
        for (int i = 0; i < bounds.size(); i++) {
            if (l.min()[i] > l.max()[i] || r.min()[i] > r.max()[i]) {
                return false;  // a block whose column is all NULL satisfies no comparison
            }
            boolean possible = bounds.get(i).leftAtMost() ? l.min()[i] <= r.max()[i] : l.max()[i] >= r.min()[i];
            if (!possible) {
                return false;
            }
        }
        return true;
    }
}
