package io.warpdb.exec.cpu.operator;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.BatchStream;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.exec.ExecContext;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.FilterNode;
import io.warpdb.core.plan.ProjectNode;
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
import io.warpdb.exec.cpu.expr.EvalInput;
import io.warpdb.exec.cpu.expr.Evaluator;
import io.warpdb.exec.cpu.expr.ExprCompiler;
import io.warpdb.exec.cpu.hash.GroupKeyStrings;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;
import io.warpdb.exec.cpu.hash.PartitionOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;

/**
 * GROUP BY with aggregates, by hashing: each input row's group keys are encoded and looked up
 * in a {@link KeyTable} that numbers the groups (NULL keys form a group of their own), and every
 * aggregate's {@link Accumulator} adds the row to its group. After the last input batch the
 * groups are emitted in batches of up to {@link #MAX_BATCH_ROWS}. Without group keys there is
 * exactly one group, even for empty input.
 *
 * <p>Given several inputs (the copies of a parallel {@link Pipeline}), each is drained by its own
 * worker into its own groups, and the partial groups are then merged (see {@link #drainInParallel});
 * this needs {@link MergeableAccumulator}s (see {@link #mergeable}). With one input the groups
 * come out in order of first appearance.
 */
final class HashAggregateOperator extends Operator {
    private final List<Integer> groupKeys;
    private final List<AggCall> aggregates;
    private final Schema inputSchema;
    /** Per string group key: the ids its values are encoded as, shared by all workers (null for other keys). */
    private final List<GroupKeyStrings> keyStrings = new ArrayList<>();
    /** Per wide DECIMAL group key: the ids of its values (see {@link KeyEncoder}), shared by all workers (null for other keys). */
    private final List<StringDictionary.Builder> wideKeys = new ArrayList<>();
    /** Per string or wide DECIMAL key: the values of its ids, made once the groups are complete (null for other keys). */
    private final List<StringDictionary> keyValues = new ArrayList<>();
    /** Per aggregate: converts the accumulator's results to the aggregate's declared type. */
    private final List<Evaluator> resultConversions = new ArrayList<>();
    /** Groups of all partials together above which the partials merge in parallel. */
    private static final long PARALLEL_MERGE_GROUPS = 1 << 16;

    private final int inputCount;
    /** The projection (and the filter below it, which may be null) this aggregate runs itself on its inputs; null when none. */
    private final ProjectNode fusedProject;
    private final FilterNode fusedFilter;
    /** The result: one table of groups, or one per hash partition after a parallel merge. */
    private List<Groups> results;
    /** Per result table: how many of its groups were made into output batches. */
    private int[] emittedGroups;
    /** Output batches made and not handed out yet, in order. */
    private final Deque<Batch> ready = new ArrayDeque<>();

    HashAggregateOperator(AggregateNode node, List<BatchStream> inputs, ExecContext context) {
        this(node, null, null, inputs, context);
    }

    /**
     * An aggregate of {@code project} (the node's input), which this operator runs itself, with
     * {@code filter} (the projection's input, may be null), over {@code inputs}: the rows below
     * them. {@code project} null: the inputs give the node's input rows.
     */
    HashAggregateOperator(AggregateNode node, ProjectNode project, FilterNode filter, List<BatchStream> inputs, ExecContext context) {
        super(context, node.schema(), inputs.toArray(BatchStream[]::new));
        this.fusedProject = project;
        this.fusedFilter = filter;
        this.inputCount = inputs.size();
        this.groupKeys = node.groupKeys();
        this.aggregates = node.aggregates();
        this.inputSchema = node.input().schema();
        for (int key : groupKeys) {
            keyStrings.add(inputSchema.type(key).kind().isString() ? new GroupKeyStrings() : null);
            wideKeys.add(inputSchema.type(key).isWideDecimal() ? new StringDictionary.Builder() : null);
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
            if (!(Accumulators.create(call, call.args().stream().map(input::type).toList()) instanceof MergeableAccumulator)) {
                return false;
            }
        }
        return true;
    }

    private Accumulator newAccumulator(AggCall call) {
        return Accumulators.create(call, call.args().stream().map(inputSchema::type).toList());
    }

    @Override
    public Batch next() {
        if (results == null) {
            results = inputCount == 1 ? List.of(drain(0)) : drainInParallel();
            emittedGroups = new int[results.size()];
            for (int k = 0; k < groupKeys.size(); k++) {
                keyValues.add(keyStrings.get(k) != null ? keyStrings.get(k).dictionary()
                        : wideKeys.get(k) != null ? wideKeys.get(k).build() : null);
            }
        }
        if (ready.isEmpty()) {
            makeOutputRound();
        }
        return ready.pollFirst();
    }

    /**
     * Makes the next batch of every result table that has groups left, in parallel when there
     * are several (the hash partitions of a parallel merge): the output of millions of groups
     * (TPC-H Q18's 15 M orders at SF 10) is then not one thread's work. Each table is read by
     * one worker only, as its accumulators' results are not safe to read from two threads at once.
     */
    private void makeOutputRound() {
        List<Integer> pending = new ArrayList<>();
        for (int t = 0; t < results.size(); t++) {
            if (emittedGroups[t] < results.get(t).keptCount()) {
                pending.add(t);
            }
        }
        Batch[] made = new Batch[pending.size()];
        if (pending.size() == 1) {
            made[0] = nextBatchOf(pending.get(0));
        } else if (!pending.isEmpty()) {
            try {
                Workers.runAll(pending.size(), i -> made[i] = nextBatchOf(pending.get(i)));
            } catch (RuntimeException | Error e) {
                BatchRows.closeAll(Arrays.stream(made).filter(Objects::nonNull).toList());
                throw e;
            }
        }
        ready.addAll(Arrays.asList(made));
    }

    /** The next output batch of result table {@code t}. */
    private Batch nextBatchOf(int t) {
        Groups groups = results.get(t);
        int from = emittedGroups[t];
        int count = Math.min(MAX_BATCH_ROWS, groups.keptCount() - from);
        Batch out = output(groups, from, count);
        emittedGroups[t] = from + count;
        return out;
    }

    @Override
    protected void releaseState() {
        BatchRows.closeAll(List.copyOf(ready));
        ready.clear();
    }

    private Groups drain(int inputIndex) {
        Groups partial = new Groups(0);
        Batch batch;
        while ((batch = pullNonEmpty(input(inputIndex))) != null) {
            try (Batch in = batch) {
                partial.accumulate(in);
            }
        }
        return partial;
    }

    /**
     * One partial aggregation per worker, then their merge. Few groups merge into the first
     * partial on this thread. Many groups merge in parallel, each worker building the groups of
     * one hash partition from that partition's groups of all partials, as a radix-partitioned
     * aggregation does, so that the merge is not one thread's work of workers x groups inserts;
     * except for two partials that share few groups (input clustered by the group key), where
     * the shared ones merge into the first partial ({@link #mergeOverlaps}) and no group is
     * inserted again. That saves work only for two: its lookups grow with the square of the
     * workers (each partial's groups in all earlier ones), the radix merge's inserts do not.
     */
    private List<Groups> drainInParallel() {
        Groups[] partials = new Groups[inputCount];
        Workers.runAll(inputCount, i -> partials[i] = drain(i));
        long total = 0;
        for (Groups partial : partials) {
            total += partial.count();
        }
        if (groupKeys.isEmpty() || total < PARALLEL_MERGE_GROUPS) {
            for (int i = 1; i < inputCount; i++) {
                context.checkCancelled();
                partials[0].merge(partials[i], partials[i].storedKeys(1), 0);
            }
            return List.of(partials[0]);
        }
        if (Arrays.stream(partials).allMatch(p -> p.clustered != null)
                && ClusteredKeys.apart(Arrays.stream(partials).map(p -> p.clustered).toList())) {
            return mergeBoundaries(partials);
        }
        int parts = inputCount;
        StoredKeys[] keys = new StoredKeys[inputCount];
        Workers.runAll(inputCount, i -> keys[i] = partials[i].storedKeys(parts));
        if (inputCount == 2 && mostlyDisjoint(partials, keys)) {
            mergeOverlaps(partials, keys);
            return List.of(partials);
        }
        Groups[] merged = new Groups[parts];
        Workers.runAll(parts, p -> {
            int expected = 0;
            for (StoredKeys k : keys) {
                expected += k.countIn(p);
            }
            Groups own = new Groups(expected);
            for (int i = 0; i < inputCount; i++) {
                context.checkCancelled();
                own.merge(partials[i], keys[i], p);
            }
            merged[p] = own;
        });
        return List.of(merged);
    }

    /**
     * The merge for input clustered by its one group key ({@link ClusteredKeys}): only the groups
     * of keys that begin or end a batch can be in several partials. Those move into one more table
     * of groups; every other group stays where it is, inserted nowhere again (the radix merge
     * would rebuild all of them: TPC-H Q18's 15 M orders at SF 10).
     */
    private List<Groups> mergeBoundaries(Groups[] partials) {
        long[][] keys = {ClusteredKeys.boundaries(Arrays.stream(partials).map(p -> p.clustered).toList())};
        boolean[][] nulls = {null};
        int boundaries = keys[0].length;
        // Every boundary key has rows (it begins or ends a batch that was aggregated), so no shared group stays empty.
        Groups shared = new Groups(boundaries);
        int[] sharedIds = new int[boundaries];
        shared.table.add(keys, nulls, null, sharedIds, null);
        for (Groups partial : partials) {
            context.checkCancelled();
            int[] own = new int[boundaries];
            partial.table.find(keys, nulls, null, own, 0, boundaries);
            int[] moveTo = new int[partial.count()];
            Arrays.fill(moveTo, -1);
            boolean[] moved = new boolean[partial.count()];
            for (int b = 0; b < boundaries; b++) {
                if (own[b] >= 0) {
                    moveTo[own[b]] = sharedIds[b];
                    moved[own[b]] = true;
                }
            }
            shared.mergeStates(partial, moveTo);
            partial.keepOnly(moved);
        }
        List<Groups> results = new ArrayList<>(Arrays.asList(partials));
        results.add(shared);
        return results;
    }

    /** Groups looked up per partial to tell whether the partials share few groups. */
    private static final int OVERLAP_SAMPLE = 4096;

    /**
     * Whether few of the partials' groups occur in more than one partial, judged by looking up
     * the first {@link #OVERLAP_SAMPLE} groups of each in the partials before it: so it is when
     * the input comes clustered by the group key (TPC-H Q18's lineitem by l_orderkey: each
     * worker's morsels hold other orders).
     */
    private static boolean mostlyDisjoint(Groups[] partials, StoredKeys[] keys) {
        long sampled = 0;
        long shared = 0;
        for (int i = 1; i < partials.length; i++) {
            int count = partials[i].count();
            int sample = Math.min(count, OVERLAP_SAMPLE);
            int[] ids = new int[count];
            for (int j = 0; j < i; j++) {
                partials[j].table.find(keys[i].keys, keys[i].nulls, null, ids, 0, sample);
                for (int g = 0; g < sample; g++) {
                    shared += ids[g] >= 0 ? 1 : 0;
                }
            }
            sampled += sample;
        }
        return shared * 10 < sampled;
    }

    /**
     * The merge for partials that share few groups: each group of a partial that an earlier
     * partial also has merges into that one's and is left out of the result; the others stay
     * where they are, so no group is inserted again (a radix merge would rebuild all of them).
     * The lookups run in parallel, one range of the partial's groups per worker; the merges,
     * few, on this thread.
     */
    private void mergeOverlaps(Groups[] partials, StoredKeys[] keys) {
        for (int i = 1; i < partials.length; i++) {
            int count = partials[i].count();
            int chunk = (count + inputCount - 1) / inputCount;
            StoredKeys later = keys[i];
            boolean[] merged = new boolean[count];
            for (int j = 0; j < i; j++) {
                context.checkCancelled();
                Groups earlier = partials[j];
                int[] ids = new int[count];
                Workers.runAll(inputCount, w -> earlier.table.find(later.keys, later.nulls, merged, ids,
                        Math.min(count, w * chunk), Math.min(count, (w + 1) * chunk)));
                boolean any = false;
                for (int g = 0; g < count; g++) {
                    if (ids[g] >= 0) {
                        merged[g] = true;
                        any = true;
                    }
                }
                if (any) {
                    earlier.mergeStates(partials[i], ids);
                }
            }
            partials[i].keepOnly(merged);
        }
    }

    /**
     * The group keys of a partial, column-wise by group id, and its group ids ordered by hash
     * partition, so that a worker merging one partition reads only its groups.
     */
    private static final class StoredKeys {
        final long[][] keys;
        final boolean[][] nulls;
        final PartitionOrder byPartition;

        StoredKeys(long[][] keys, boolean[][] nulls, int[] partition, int parts) {
            this.keys = keys;
            this.nulls = nulls;
            byPartition = PartitionOrder.of(partition, parts);
        }

        /** How many groups lie in partition {@code p}. */
        int countIn(int p) {
            return byPartition.end(p) - byPartition.start(p);
        }

        /** Column k of the given rows of {@code values}: the keys or NULL flags of partition p's groups. */
        static long[] gather(long[] values, int[] rows, int from, int to) {
            long[] out = new long[to - from];
            for (int i = from; i < to; i++) {
                out[i - from] = values[rows[i]];
            }
            return out;
        }

        static boolean[] gather(boolean[] values, int[] rows, int from, int to) {
            boolean[] out = new boolean[to - from];
            for (int i = from; i < to; i++) {
                out[i - from] = values[rows[i]];
            }
            return out;
        }
    }

    /** The groups one worker has seen, with their aggregate states. */
    private final class Groups {
        private final List<KeyEncoder> keyEncoders = new ArrayList<>();
        private final KeyTable table;
        private final List<Accumulator> accumulators = new ArrayList<>();
        /** This worker's run of the fused projection, made with its first batch; null before, or without one. */
        private FusedProjection projection;
        /** The ids of the groups to output, ascending; null: all of them. */
        private int[] kept;
        /** The batches' key ranges, for a single key that is neither a string nor a wide DECIMAL; null otherwise. */
        private final ClusteredKeys clustered = groupKeys.size() == 1 && keyStrings.get(0) == null && wideKeys.get(0) == null
                ? new ClusteredKeys() : null;

        /** Groups sized for {@code expected} keys (0 when unknown). */
        Groups(int expected) {
            table = new KeyTable(groupKeys.size(), expected);
            for (int k = 0; k < groupKeys.size(); k++) {
                keyEncoders.add(keyStrings.get(k) != null ? KeyEncoder.forGrouping(keyStrings.get(k))
                        : KeyEncoder.forGrouping(inputSchema.type(groupKeys.get(k)), wideKeys.get(k)));
            }
            for (AggCall call : aggregates) {
                accumulators.add(newAccumulator(call));
            }
        }

        int count() {
            return groupKeys.isEmpty() ? 1 : table.size();
        }

        /** How many groups go to the output. */
        int keptCount() {
            return kept == null ? count() : kept.length;
        }

        /** The id of output group {@code i}. */
        int keptId(int i) {
            return kept == null ? i : kept[i];
        }

        /** Leaves out of the output the groups flagged in {@code dropped}. */
        void keepOnly(boolean[] dropped) {
            int[] ids = new int[dropped.length];
            int count = 0;
            for (int g = 0; g < dropped.length; g++) {
                if (!dropped[g]) {
                    ids[count++] = g;
                }
            }
            kept = count == dropped.length ? null : Arrays.copyOf(ids, count);
        }

        void accumulate(Batch batch) {
            EvalInput input = new BatchInput(batch);
            if (fusedProject != null) {
                if (projection == null) {
                    projection = new FusedProjection(fusedProject, fusedFilter, context);
                }
                input = projection.apply(batch);
                if (input == null) {
                    return;
                }
            }
            int rows = input.rowCount();
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
                if (clustered != null) {
                    clustered.add(keys[0], nulls[0], rows);
                }
            }
            for (int a = 0; a < aggregates.size(); a++) {
                accumulators.get(a).add(aggregates.get(a).args().stream().map(input::column).toList(), groupIds, count());
            }
        }

        /** This worker's group keys, each group in one of {@code parts} hash partitions (by the hash's high bits). */
        StoredKeys storedKeys(int parts) {
            int groupCount = count();
            int keyCount = groupKeys.size();
            long[][] keys = new long[keyCount][groupCount];
            boolean[][] nulls = new boolean[keyCount][groupCount];
            int[] partition = new int[groupCount];
            if (keyCount > 0) {
                for (int g = 0; g < groupCount; g++) {
                    for (int k = 0; k < keyCount; k++) {
                        keys[k][g] = table.key(k, g);
                        nulls[k][g] = table.isNull(k, g);
                    }
                    partition[g] = PartitionOrder.partition(table.storedHash(g), parts);
                }
            }
            return new StoredKeys(keys, nulls, partition, parts);
        }

        /**
         * Adds the groups and states of {@code partial} (whose keys are {@code keys}) that lie in
         * hash partition {@code p}; string keys need no translation (the ids are shared).
         */
        void merge(Groups partial, StoredKeys keys, int p) {
            int[] groupIds = new int[partial.count()];
            if (!groupKeys.isEmpty()) {
                int from = keys.byPartition.start(p);
                int to = keys.byPartition.end(p);
                long[][] partKeys = new long[groupKeys.size()][];
                boolean[][] partNulls = new boolean[groupKeys.size()][];
                for (int k = 0; k < groupKeys.size(); k++) {
                    partKeys[k] = StoredKeys.gather(keys.keys[k], keys.byPartition.items(), from, to);
                    partNulls[k] = StoredKeys.gather(keys.nulls[k], keys.byPartition.items(), from, to);
                }
                int[] partIds = new int[to - from];
                table.add(partKeys, partNulls, null, partIds, null);
                Arrays.fill(groupIds, -1);
                for (int i = from; i < to; i++) {
                    groupIds[keys.byPartition.item(i)] = partIds[i - from];
                }
            }
            mergeStates(partial, groupIds);
        }

        /** Adds the states of {@code partial}'s group g to this one's group {@code groupIds[g]} (none when negative). */
        void mergeStates(Groups partial, int[] groupIds) {
            for (int a = 0; a < accumulators.size(); a++) {
                ((MergeableAccumulator) accumulators.get(a)).merge((MergeableAccumulator) partial.accumulators.get(a),
                        groupIds, count());
            }
        }
    }

    private Batch output(Groups groups, int from, int count) {
        Schema schema = schema();
        List<FieldVector> vectors = new ArrayList<>(schema.size());
        List<StringDictionary> dictionaries = new ArrayList<>(schema.size());
        try {
            for (int c = 0; c < schema.size(); c++) {
                int keys = groupKeys.size();
                Column values = c < keys ? groupKeyColumn(groups, c, from, count) : aggregateColumn(groups, c - keys, from, count);
                vectors.add(ArrowColumns.write(values, schema.type(c), schema.field(c).name(), allocator()));
                dictionaries.add(values.dictionary());
            }
            return new Batch(schema, vectors, dictionaries, count);
        } catch (RuntimeException e) {
            BatchRows.closeAll(vectors);
            throw e;
        }
    }

    /** Key k of output groups [from, from + count), decoded from the table. */
    private Column groupKeyColumn(Groups groups, int k, int from, int count) {
        DataType type = inputSchema.type(groupKeys.get(k));
        boolean[] nulls = new boolean[count];
        long[] keys = new long[count];
        for (int i = 0; i < count; i++) {
            int id = groups.keptId(from + i);
            nulls[i] = groups.table.isNull(k, id);
            keys[i] = groups.table.key(k, id);
        }
        if (type.kind() == TypeKind.DOUBLE) {
            double[] values = new double[count];
            for (int i = 0; i < count; i++) {
                values[i] = Double.longBitsToDouble(keys[i]);
            }
            return Column.ofDoubles(type, values, nulls);
        }
        if (type.kind().isString()) {
            return Column.ofCodes(type, keys, nulls, keyValues.get(k));
        }
        if (type.isWideDecimal()) {
            StringDictionary wideValues = keyValues.get(k);
            long[] highs = new long[count];
            for (int i = 0; i < count; i++) {
                if (!nulls[i]) {
                    String key = wideValues.get((int) keys[i]);
                    highs[i] = KeyEncoder.wideKeyHigh(key);
                    keys[i] = KeyEncoder.wideKeyLow(key);
                }
            }
            return Column.ofWide(type, keys, highs, nulls);
        }
        return Column.ofLongs(type, keys, nulls);
    }

    /** Aggregate a of output groups [from, from + count). */
    private Column aggregateColumn(Groups groups, int a, int from, int count) {
        int first = groups.keptId(from);
        int span = groups.keptId(from + count - 1) - first + 1;
        Column result = groups.accumulators.get(a).result(first, span);
        if (span > count) {
            int[] rows = new int[count];
            for (int i = 0; i < count; i++) {
                rows[i] = groups.keptId(from + i) - first;
            }
            result = result.gather(rows);
        }
        return resultConversions.get(a).evaluate(new ColumnsInput(count, result));
    }
}
