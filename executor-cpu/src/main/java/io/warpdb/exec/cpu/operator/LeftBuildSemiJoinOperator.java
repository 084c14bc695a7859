package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.plan.JoinKind;
import io.warpdb.core.plan.JoinNode;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.expr.JoinedInput;
import io.warpdb.exec.cpu.expr.SubsetInput;
import java.util.Arrays;
import java.util.List;

/**
 * A SEMI or ANTI join that indexes its left input and streams the right one past it (the plan's
 * {@code buildLeft} hint: the right input is much larger, e.g. {@code EXISTS} over lineitem for
 * a few thousand orders). The right rows are probed by one worker per input (the copies of a
 * parallel pipeline); each candidate pair that passes the residual marks its left row. Once the
 * right input is exhausted, the marked (SEMI) or unmarked (ANTI) left rows are emitted in their
 * input order.
 *
 * <p>Workers mark a shared array without locks: they only ever set flags, and the flags are read
 * after every worker has ended ({@link Workers#runAll} waits for them).
 */
final class LeftBuildSemiJoinOperator extends Operator {
    private final JoinNode node;
    /** The left rows indexed by key: a build over the join with its sides swapped. */
    private final JoinBuild build;
    private final int probeCount;
    private final Evaluator residual;

    private boolean[] matched;
    private int nextLeftRow;

    /**
     * {@code leftIndex}: from {@link #leftIndex}, now owned by this operator; {@code probes}: the
     * right input, or the copies of its parallel pipeline.
     */
    LeftBuildSemiJoinOperator(JoinNode node, JoinBuild leftIndex, List<BatchStream> probes, ExecContext context) {
        super(context, node.schema(), probes.toArray(BatchStream[]::new));
        this.node = node;
        this.probeCount = probes.size();
        this.build = leftIndex;
        this.residual = node.residual() == null ? null : ExprCompiler.compile(node.residual());
    }

    /** The index of the join's left rows: a build over the join with its sides swapped; it closes {@code left}. */
    static JoinBuild leftIndex(JoinNode node, BatchStream left, ExecContext context) {
        JoinNode swapped = new JoinNode(node.right(), node.left(), JoinKind.INNER, node.rightKeys(), node.leftKeys(), null,
                node.right().schema().concat(node.left().schema()));
        return new JoinBuild(swapped, left, context);
    }

    @Override
    public Batch next() {
        if (matched == null) {
            build.ensureBuilt();
            matched = new boolean[build.rows().rowCount()];
            if (matched.length > 0) {
                Workers.runAll(probeCount, this::probe);
            }
        }
        boolean wanted = node.kind() == JoinKind.SEMI;
        int[] rows = new int[MAX_BATCH_ROWS];
        int count = 0;
        while (nextLeftRow < matched.length && count < MAX_BATCH_ROWS) {
            int row = nextLeftRow++;
            if (matched[row] == wanted) {
                rows[count++] = row;
            }
        }
        return count == 0 ? null : BatchRows.gather(build.rows(), Arrays.copyOf(rows, count), allocator());
    }

    /** Streams right input {@code index} past the left rows, marking those that some right row matches. */
    private void probe(int index) {
        var encoders = build.probeEncoders();
        int[] pairLeft = new int[MAX_BATCH_ROWS];
        int[] pairRight = new int[MAX_BATCH_ROWS];
        Batch batch;
        while ((batch = pullNonEmpty(input(index))) != null) {
            try (Batch right = batch) {
                BatchInput rightInput = new BatchInput(right);
                EncodedJoinKeys keys = EncodedJoinKeys.encode(rightInput, node.rightKeys(), encoders);
                int rows = right.rowCount();
                int[] starts = new int[rows];
                int[] counts = new int[rows];
                build.match(keys, starts, counts);
                int count = 0;
                for (int row = 0; row < rows; row++) {
                    for (int i = starts[row], end = i + counts[row]; i < end; i++) {
                        int leftRow = build.buildRow(i);
                        if (residual == null) {
                            matched[leftRow] = true;
                        } else if (!matched[leftRow]) {
                            if (count == MAX_BATCH_ROWS) {
                                markPassing(pairLeft, pairRight, count, rightInput);
                                count = 0;
                            }
                            pairLeft[count] = leftRow;
                            pairRight[count++] = row;
                        }
                    }
                }
                markPassing(pairLeft, pairRight, count, rightInput);
            }
        }
    }

    /** Marks the left rows of the candidate pairs for which the residual is TRUE. */
    private void markPassing(int[] pairLeft, int[] pairRight, int count, BatchInput rightInput) {
        if (count == 0) {
            return;
        }
        int[] leftRows = Arrays.copyOf(pairLeft, count);
        Column condition = residual.evaluate(new JoinedInput(new SubsetInput(build.rowInput(), leftRows),
                node.left().schema().size(), new SubsetInput(rightInput, Arrays.copyOf(pairRight, count))));
        for (int pair : condition.trueRows()) {
            matched[leftRows[pair]] = true;
        }
    }

    @Override
    protected void releaseState() {
        build.close();
    }
}
