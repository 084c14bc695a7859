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
 * groups are emitted in order of first appearance, in batches of up to {@link #MAX_BATCH_ROWS}.
 * Without group keys there is exactly one group, even for empty input.
 */
final class HashAggregateOperator extends Operator {
    private final List<Integer> groupKeys;
    private final List<AggCall> aggregates;
    private final Schema inputSchema;
    private final List<KeyEncoder> keyEncoders = new ArrayList<>();
    /** Per string group key: the ids its values were encoded as (null for other keys). */
    private final List<StringDictionary.Builder> keyStrings = new ArrayList<>();
    private final KeyTable groups;
    private final List<Accumulator> accumulators = new ArrayList<>();
    /** Per aggregate: converts the accumulator's results to the aggregate's declared type. */
    private final List<Evaluator> resultConversions = new ArrayList<>();
    private boolean inputConsumed;
    private int emittedGroups;

    HashAggregateOperator(AggregateNode node, BatchStream input, ExecContext context) {
        super(context, node.schema(), input);
        this.groupKeys = node.groupKeys();
        this.aggregates = node.aggregates();
        this.inputSchema = node.input().schema();
        for (int key : groupKeys) {
            DataType type = inputSchema.type(key);
            StringDictionary.Builder strings = type.kind().isString() ? new StringDictionary.Builder() : null;
            keyStrings.add(strings);
            keyEncoders.add(KeyEncoder.forGrouping(type, strings));
        }
        this.groups = new KeyTable(groupKeys.size());
        for (AggCall call : aggregates) {
            DataType argType = call.args().isEmpty() ? null : inputSchema.type(call.args().get(0));
            Accumulator accumulator = Accumulators.create(call, argType);
            accumulators.add(accumulator);
            resultConversions.add(ExprCompiler.compile(new ColumnRef(0, accumulator.resultType()), call.type()));
        }
    }

    @Override
    public Batch next() {
        if (!inputConsumed) {
            Batch batch;
            while ((batch = pullNonEmpty(input(0))) != null) {
                try (Batch in = batch) {
                    accumulate(in);
                }
            }
            inputConsumed = true;
        }
        int groupCount = groupCount();
        if (emittedGroups >= groupCount) {
            return null;
        }
        int count = Math.min(MAX_BATCH_ROWS, groupCount - emittedGroups);
        Batch out = output(emittedGroups, count);
        emittedGroups += count;
        return out;
    }

    private int groupCount() {
        return groupKeys.isEmpty() ? 1 : groups.size();
    }

    private void accumulate(Batch batch) {
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
            groups.add(keys, nulls, null, groupIds, null);
        }
        for (int a = 0; a < aggregates.size(); a++) {
            List<Integer> args = aggregates.get(a).args();
            accumulators.get(a).add(args.isEmpty() ? null : input.column(args.get(0)), groupIds, groupCount());
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
            nulls[i] = groups.isNull(k, from + i);
            keys[i] = groups.key(k, from + i);
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
        Column result = accumulators.get(a).result(from, count);
        return resultConversions.get(a).evaluate(new ColumnsInput(count, result));
    }
}
