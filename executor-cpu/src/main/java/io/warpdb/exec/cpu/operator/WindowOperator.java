package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.plan.WindowCall;
import io.warpdb.core.plan.WindowFrame;
import io.warpdb.core.plan.WindowNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.sort.IntSorter;
import io.warpdb.exec.cpu.sort.RowOrder;
import io.warpdb.exec.cpu.window.FrameBounds;
import io.warpdb.exec.cpu.window.WindowEvaluator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;

/**
 * Window functions of one window specification ({@link WindowNode}). A pipeline breaker like the
 * sort: collects the whole input into one batch, orders its rows by partition keys, then order
 * keys ({@link RowOrder}, on the query's workers), then evaluates every call partition by
 * partition ({@link WindowEvaluator}), the partitions dealt out in runs of about equal rows to
 * the workers. Emits the rows in that order with the calls' columns after the input's.
 */
final class WindowOperator extends Operator {
    /** Rows below which a run of partitions is not worth a worker of its own. */
    private static final int MIN_ROWS_PER_RUN = 1 << 14;

    private final WindowNode node;
    private Batch collected;
    /** Sorted position -> row of {@link #collected}. */
    private int[] order;
    /** Per call, its values by sorted position. */
    private Column[] results;
    private int nextPosition;

    WindowOperator(WindowNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.node = node;
    }

    @Override
    public Batch next() {
        if (order == null) {
            evaluate();
        }
        if (nextPosition >= order.length) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, order.length - nextPosition);
        int[] positions = new int[count];
        Arrays.setAll(positions, i -> nextPosition + i);
        Batch rows = BatchRows.gather(collected, Arrays.copyOfRange(order, nextPosition, nextPosition + count), allocator());
        nextPosition += count;
        List<FieldVector> vectors = new ArrayList<>(rows.vectors());
        List<StringDictionary> dictionaries = new ArrayList<>(rows.dictionaries());
        int inputColumns = rows.columnCount();
        try {
            for (int c = 0; c < results.length; c++) {
                Column part = results[c].gather(positions);
                vectors.add(ArrowColumns.write(part, schema().type(inputColumns + c), schema().field(inputColumns + c).name(),
                        allocator()));
                dictionaries.add(part.dictionary());
            }
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
        return new Batch(schema(), vectors, dictionaries, count);
    }

    private void evaluate() {
        List<Batch> batches = new ArrayList<>();
        Batch batch;
        while ((batch = pullNonEmpty(input(0))) != null) {
            batches.add(batch);
        }
        collected = BatchRows.concat(input(0).schema(), batches, allocator());
        int rows = collected.rowCount();
        List<SortKey> partitionKeys = node.partitionKeys().stream().map(k -> new SortKey(k, false, true)).toList();
        List<SortKey> allKeys = new ArrayList<>(partitionKeys);
        allKeys.addAll(node.orderKeys());
        order = RowOrder.sortFirst(collected, allKeys, rows, context.parallelism(), Workers::runAll);
        List<WindowEvaluator> evaluators = new ArrayList<>();
        BatchInput input = new BatchInput(collected);
        for (WindowCall call : node.calls()) {
            evaluators.add(WindowEvaluator.create(call, (index, type) -> sortedValues(call.args().get(index), type, input),
                    rows));
        }
        int[] partitionStarts = partitionStarts(RowOrder.comparator(collected, partitionKeys));
        evaluatePartitions(partitionStarts, evaluators, rangeKey());
        results = evaluators.stream().map(WindowEvaluator::result).toArray(Column[]::new);
    }

    /** The values of {@code arg} by sorted position, as {@code type} (null: its own). */
    private Column sortedValues(Expr arg, DataType type, BatchInput input) {
        Column values = (type == null ? ExprCompiler.compile(arg) : ExprCompiler.compile(arg, type)).evaluate(input);
        return values.gather(order);
    }

    /** The first sorted position of each partition, then the row count. */
    private int[] partitionStarts(IntSorter.IntComparator partitions) {
        int rows = order.length;
        int[] starts = new int[rows + 1];
        int count = 0;
        for (int p = 0; p < rows; p++) {
            if (p == 0 || partitions.compare(order[p - 1], order[p]) != 0) {
                starts[count++] = p;
            }
        }
        starts[count++] = rows;
        return Arrays.copyOf(starts, count);
    }

    /**
     * Evaluates every call over every partition, runs of whole partitions of about equal rows on
     * the workers; each run finds its rows' peers and frames first.
     */
    private void evaluatePartitions(int[] partitionStarts, List<WindowEvaluator> evaluators, FrameBounds.RangeKey rangeKey) {
        int rows = order.length;
        int partitions = partitionStarts.length - 1;
        int runs = Math.max(1, Math.min(Math.min(context.parallelism(), partitions), rows / MIN_ROWS_PER_RUN));
        int[] runStarts = new int[runs + 1];
        for (int r = 1, p = 0; r < runs; r++) {
            long target = (long) rows * r / runs;
            while (p < partitions && partitionStarts[p] < target) {
                p++;
            }
            runStarts[r] = Math.max(p, runStarts[r - 1]);
        }
        runStarts[runs] = partitions;
        IntSorter.IntComparator peers = RowOrder.comparator(collected, node.orderKeys());
        int[] peerStart = new int[rows];
        int[] peerEnd = new int[rows];
        Map<WindowFrame, int[][]> frames = new HashMap<>();
        for (WindowCall call : node.calls()) {
            if (call.function().usesFrame()) {
                frames.computeIfAbsent(call.frame(), f -> new int[][] {new int[rows], new int[rows]});
            }
        }
        int[][] noFrame = {null, null};
        Workers.runAll(runs, r -> {
            for (int p = runStarts[r]; p < runStarts[r + 1]; p++) {
                context.checkCancelled();
                int from = partitionStarts[p];
                int to = partitionStarts[p + 1];
                findPeers(from, to, peers, peerStart, peerEnd);
                for (Map.Entry<WindowFrame, int[][]> frame : frames.entrySet()) {
                    FrameBounds.compute(frame.getKey(), from, to, peerStart, peerEnd, rangeKey, frame.getValue()[0],
                            frame.getValue()[1]);
                }
                for (int c = 0; c < evaluators.size(); c++) {
                    int[][] frame = frames.getOrDefault(node.calls().get(c).frame(), noFrame);
                    evaluators.get(c).evaluate(from, to, peerStart, peerEnd, frame[0], frame[1]);
                }
            }
        });
    }

    /** Each position's peer group [peerStart, peerEnd) within the partition [from, to). */
    private void findPeers(int from, int to, IntSorter.IntComparator peers, int[] peerStart, int[] peerEnd) {
        for (int i = from; i < to; i++) {
            peerStart[i] = i > from && peers.compare(order[i - 1], order[i]) == 0 ? peerStart[i - 1] : i;
        }
        for (int i = to - 1; i >= from; i--) {
            peerEnd[i] = i < to - 1 && peerStart[i + 1] == peerStart[i] ? peerEnd[i + 1] : i + 1;
        }
    }

    /** The order key by sorted position, when a RANGE frame measures offsets on it; else null. */
    private FrameBounds.RangeKey rangeKey() {
        boolean needed = node.calls().stream().anyMatch(c -> c.function().usesFrame() && !c.frame().rows()
                && (c.frame().lower().hasOffset() || c.frame().upper().hasOffset()));
        if (!needed) {
            return null;
        }
        if (node.orderKeys().size() != 1) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED, "a RANGE frame with an offset needs exactly one ORDER BY key");
        }
        SortKey key = node.orderKeys().get(0);
        Column column = ArrowColumns.read(collected, key.column()).gather(order);
        TypeKind kind = column.type().kind();
        if (!kind.isExactNumeric() && !kind.isDatetime()) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "a RANGE frame with an offset over a " + column.type().sqlName() + " key is not supported yet");
        }
        long[] ascending = column.longs();
        if (key.descending()) {
            ascending = Arrays.stream(ascending).map(v -> -v).toArray();
        }
        return new FrameBounds.RangeKey(ascending, column.nulls());
    }

    @Override
    protected void releaseState() {
        if (collected != null) {
            collected.close();
        }
    }
}
