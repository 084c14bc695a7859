package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.core.plan.ProjectNode;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.cpu.batch.BatchRows;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;

/**
 * An inner hash join that picks its build side at run time. The planner builds on the side it
 * estimates smaller, but some estimates cannot be made: TPC-H Q18 keeps the orders whose
 * lineitems sum above 300 (57 of 1.5 M at SF 1), estimated at half of them, so the plan builds
 * on all orders. This operator reads the left input first: when it ends within
 * {@link #MAX_LEFT_BUILD_ROWS} rows, those rows are indexed and the right input streams past
 * them (its scan, when it runs as a parallel pipeline, dropping the rows whose key they cannot
 * match); otherwise the left rows read so far and the rest of them probe the planned build of
 * the right input, as {@link HashJoinOperator} does. Either way the output columns are the
 * left's then the right's.
 */
final class AdaptiveJoinOperator extends Operator {
    /** The most left rows indexed instead of the right input. */
    static final int MAX_LEFT_BUILD_ROWS = 1 << 16;

    private final JoinNode node;
    private BatchStream chosen;
    private final Deque<Batch> readAhead = new ArrayDeque<>();

    AdaptiveJoinOperator(JoinNode node, BatchStream left, ExecContext context) {
        super(context, node.schema(), left);
        this.node = node;
    }

    /** Whether the executor may run {@code join} with this operator. */
    static boolean applies(JoinNode join) {
        return join.kind() == JoinKind.INNER && !join.leftKeys().isEmpty();
    }

    @Override
    public Batch next() {
        if (chosen == null) {
            chosen = choose();
        }
        return chosen.next();
    }

    private BatchStream choose() {
        long rows = 0;
        Batch batch = null;
        while (rows <= MAX_LEFT_BUILD_ROWS && (batch = pull(input(0))) != null) {
            readAhead.add(batch);
            rows += batch.rowCount();
        }
        BatchStream left = new ReadAheadStream();
        if (batch != null) {
            return new HashJoinOperator(node, left, new JoinBuild(node, Operators.input(node.right(), context), context), true,
                    context);
        }
        return leftBuild(left);
    }

    /** The right rows probing an index of the left ones, then the columns put back in left, right order. */
    private BatchStream leftBuild(BatchStream left) {
        ProjectNode reordered = node.swapped();
        JoinNode swapped = (JoinNode) reordered.input();
        JoinBuild leftIndex = new JoinBuild(swapped, left, context);
        BatchStream probe;
        try {
            Pipeline pipeline = Pipeline.probing(node.right(), node.rightKeys(), node.left().schema(), node.leftKeys(), leftIndex,
                    context);
            probe = pipeline != null ? new GatherOperator(pipeline, pipeline.copies(node.right())) : Operators.input(node.right(), context);
        } catch (RuntimeException e) {
            leftIndex.close();
            throw e;
        }
        return new ProjectOperator(reordered, new HashJoinOperator(swapped, probe, leftIndex, true, context), context);
    }

    @Override
    protected void releaseState() {
        try {
            if (chosen != null) {
                chosen.close();
            }
        } finally {
            BatchRows.closeAll(new ArrayList<>(readAhead));
            readAhead.clear();
        }
    }

    /** The left rows read ahead, then the rest of the left input (which this operator closes). */
    private final class ReadAheadStream implements BatchStream {
        @Override
        public Schema schema() {
            return node.left().schema();
        }

        @Override
        public Batch next() {
            Batch b = readAhead.poll();
            return b != null ? b : pull(input(0));
        }

        @Override
        public void close() {
            BatchRows.closeAll(new ArrayList<>(readAhead));
            readAhead.clear();
        }
    }
}
