package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.aggregate.Accumulator;
import io.warpdb.exec.cpu.aggregate.Accumulators;
import io.warpdb.exec.cpu.aggregate.MergeableAccumulator;
import io.warpdb.exec.cpu.batch.BatchRows;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.expr.BatchInput;
import io.warpdb.exec.cpu.expr.ColumnsInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * GROUP BY with aggregates, by hashing: each input row's group keys are encoded and looked up
 * in a {@link KeyTable} that numbers the groups (NULL keys form a group of their own), and every
 * aggregate's {@link Accumulator} adds the row to its group. After the last input batch the
 * groups are emitted in batches of up to {@link #MAX_BATCH_ROWS}. Without group keys there is
 * exactly one group, even for empty input.
 *
 * <p>Given several inputs (the copies of a parallel {@link Pipeline}), each is drained by its own
 * worker into its own groups, and the partial groups are then merged into the first worker's;
 * this needs {@link MergeableAccumulator}s (see {@link #mergeable}). With one input the groups
 * come out in order of first appearance.
 */
final class HashAggregateOperator extends Operator {
    private final List<Integer> groupKeys;
    private final List<AggCall> aggregates;
    private final Schema inputSchema;
    /** Per string group key: the ids its values are encoded as, shared by all workers (null for other keys). */
    private final List<StringDictionary.Builder> keyStrings = new ArrayList<>();
    /** Per aggregate: converts the accumulator's results to the aggregate's declared type. */
    private final List<Evaluator> resultConversions = new ArrayList<>();
    private final int inputCount;
    private Groups groups;
    private int emittedGroups;

    HashAggregateOperator(AggregateNode node, List<BatchStream> inputs, ExecContext context) {
        super(context, node.schema(), inputs.toArray(BatchStream[]::new));
        this.inputCount = inputs.size();
        this.groupKeys = node.groupKeys();
        this.aggregates = node.aggregates();
        this.inputSchema = node.input().schema();
        for (int key : groupKeys) {
            keyStrings.add(inputSchema.type(key).kind().isString() ? new StringDictionary.Builder() : null);
        }
        for (AggCall call : aggregates) {
            Accumulator accumulator = newAccumulator(call);
            resultConversions.add(ExprCompiler.compile(new ColumnRef(0, accumulator.resultType()), call.type()));
        }
    }

    /** Whether partial aggregations of {@code node} merge: every accumulator it needs is mergeable. */
    static boolean mergeable(AggregateNode node) {
        Schema input = node.input().schema();
        for (AggCall call : node.aggregates()) {
            DataType argType = call.args().isEmpty() ? null : input.type(call.args().get(0));
            if (!(Accumulators.create(call, argType) instanceof MergeableAccumulator)) {
                return false;
            }
        }
        return true;
    }

    private Accumulator newAccumulator(AggCall call) {
        DataType argType = call.args().isEmpty() ? null : inputSchema.type(call.args().get(0));
        return Accumulators.create(call, argType);
    }

    @Override
    public Batch next() {
        if (groups == null) {
            groups = inputCount == 1 ? drain(0) : drainInParallel();
        }
        int groupCount = groups.count();
        if (emittedGroups >= groupCount) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, groupCount - emittedGroups);
        Batch out = output(emittedGroups, count);
        emittedGroups += count;
        return out;
    }

    private Groups drain(int inputIndex) {
        Groups partial = new Groups();
        Batch batch;
        while ((batch = pullNonEmpty(input(inputIndex))) != null) {
            try (Batch in = batch) {
                partial.accumulate(in);
            }
        }
        return partial;
    }

    private Groups drainInParallel() {
        Groups[] partials = new Groups[inputCount];
        Workers.runAll(inputCount, i -> partials[i] = drain(i));
        for (int i = 1; i < inputCount; i++) {
            context.checkCancelled();
            partials[0].merge(partials[i]);
        }
        return partials[0];
    }

    /** The groups one worker has seen, with their aggregate states. */
    private final class Groups {
        private final List<KeyEncoder> keyEncoders = new ArrayList<>();
        private final KeyTable table = new KeyTable(groupKeys.size());
        private final List<Accumulator> accumulators = new ArrayList<>();

        Groups() {
            for (int k = 0; k < groupKeys.size(); k++) {
                keyEncoders.add(KeyEncoder.forGrouping(inputSchema.type(groupKeys.get(k)), keyStrings.get(k)));
            }
            for (AggCall call : aggregates) {
                accumulators.add(newAccumulator(call));
            }
        }

        int count() {
            return groupKeys.isEmpty() ? 1 : table.size();
        }

        void accumulate(Batch batch) {
            int rows = batch.rowCount();
            BatchInput input = new BatchInput(batch);
            int[] groupIds = new int[rows];
            if (!groupKeys.isEmpty()) {
                long[][] keys = new long[groupKeys.size()][rows];
                boolean[][] nulls = new boolean[groupKeys.size()][];
                for (int k = 0; k < groupKeys.size(); k++) {
                    Column column = input.column(groupKeys.get(k));
                    keyEncoders.get(k).encode(column, keys[k], null);
                    nulls[k] = column.nulls();
                }
                table.add(keys, nulls, null, groupIds, null);
            }
            for (int a = 0; a < aggregates.size(); a++) {
                List<Integer> args = aggregates.get(a).args();
                accumulators.get(a).add(args.isEmpty() ? null : input.column(args.get(0)), groupIds, count());
            }
        }

        /** Adds the groups and states of {@code partial}; string keys need no translation (the ids are shared). */
        void merge(Groups partial) {
            int partialCount = partial.count();
            int[] groupIds = new int[partialCount];
            if (!groupKeys.isEmpty()) {
                int keyCount = groupKeys.size();
                long[][] keys = new long[keyCount][partialCount];
                boolean[][] nulls = new boolean[keyCount][partialCount];
                for (int k = 0; k < keyCount; k++) {
                    for (int g = 0; g < partialCount; g++) {
                        keys[k][g] = partial.table.key(k, g);
                        nulls[k][g] = partial.table.isNull(k, g);
                    }
                }
                table.add(keys, nulls, null, groupIds, null);
            }
            for (int a = 0; a < accumulators.size(); a++) {
                ((MergeableAccumulator) accumulators.get(a)).merge((MergeableAccumulator) partial.accumulators.get(a),
                        groupIds, count());
            }
        }
    }

    private Batch output(int from, int count) {
        Schema schema = schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                int keys = groupKeys.size();
                Column values = c < keys ? groupKeyColumn(c, from, count) : aggregateColumn(c - keys, from, count);
                vectors.add(ArrowColumns.write(values, schema.type(c), schema.field(c).name(), allocator()));
                dictionaries.add(values.dictionary());
            }
            return new Batch(schema, vectors, dictionaries, count);
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
    }

    /** Key k of groups [from, from + count), decoded from the table. */
    private Column groupKeyColumn(int k, int from, int count) {
        DataType type = inputSchema.type(groupKeys.get(k));
        boolean[] nulls = new boolean[count];
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            nulls[i] = groups.table.isNull(k, from + i);
            keys[i] = groups.table.key(k, from + i);
        }
        if (type.kind() == TypeKind.DOUBLE) {
            double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = Double.longBitsToDouble(keys[i]);
            }
            return Column.ofDoubles(type, values, nulls);
        }
        if (type.kind().isString()) {
            return Column.ofCodes(type, keys, nulls, keyStrings.get(k).build());
        }
        return Column.ofLongs(type, keys, nulls);
    }

    private Column aggregateColumn(int a, int from, int count) {
        Column result = groups.accumulators.get(a).result(from, count);
        return resultConversions.get(a).evaluate(new ColumnsInput(count, result));
    }
}
