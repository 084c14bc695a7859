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
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    private final List<StringDictionary.Builder> keyStrings = new ArrayList<>();
    /** Per string key: the ids the workers resolved per dictionary (see {@link KeyEncoder#forGrouping(DataType, StringDictionary.Builder, Map)}). */
    private final List<Map<StringDictionary, int[]>> keyIds = new ArrayList<>();
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
    private int resultIndex;
    private int emittedGroups;

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
            boolean string = inputSchema.type(key).kind().isString();
            boolean coded = string || inputSchema.type(key).isWideDecimal();
            keyStrings.add(coded ? new StringDictionary.Builder() : null);
            keyIds.add(string ? new ConcurrentHashMap<>() : null);
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
        }
        while (resultIndex < results.size()) {
            Groups groups = results.get(resultIndex);
            if (emittedGroups < groups.keptCount()) {
                int count = Math.min(MAX_BATCH_ROWS, groups.keptCount() - emittedGroups);
                Batch out = output(groups, emittedGroups, count);
                emittedGroups += count;
                return out;
            }
            resultIndex++;
            emittedGroups = 0;
        }
        return null;
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
     * partial on this thread; many that the partials mostly do not share stay in their partials,
     * the shared ones merged into the earliest ({@link #mergeOverlaps}); many shared ones (every
     * worker saw most of them) merge in parallel, each worker building the groups of one hash
     * partition from all partials, as a radix-partitioned aggregation does, so that the merge is
     * not one thread's work of workers x groups inserts.
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
                partials[0].merge(partials[i], partials[i].storedKeys(1), null);
            }
            return List.of(partials[0]);
        }
        int parts = inputCount;
        StoredKeys[] keys = new StoredKeys[inputCount];
        Workers.runAll(inputCount, i -> keys[i] = partials[i].storedKeys(parts));
        if (mostlyDisjoint(partials, keys)) {
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
                own.merge(partials[i], keys[i], keys[i].outside(p));
            }
            merged[p] = own;
        });
        return List.of(merged);
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
                partials[j].table.find(keys[i].keys(), keys[i].nulls(), null, ids, 0, sample);
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
                Workers.runAll(inputCount, w -> earlier.table.find(later.keys(), later.nulls(), merged, ids,
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

    /** The group keys of a partial, column-wise, with the hash partition (of {@code parts}) of each group. */
    private record StoredKeys(long[][] keys, boolean[][] nulls, int[] partition) {
        /** How many groups lie in partition {@code p}. */
        int countIn(int p) {
            int count = 0;
            for (int part : partition) {
                count += part == p ? 1 : 0;
            }
            return count;
        }

        /** Flags of the groups outside partition {@code p}, which its merge skips. */
        boolean[] outside(int p) {
            boolean[] skip = new boolean[partition.length];
            for (int g = 0; g < skip.length; g++) {
                skip[g] = partition[g] != p;
            }
            return skip;
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

        /** Groups sized for {@code expected} keys (0 when unknown). */
        Groups(int expected) {
            table = new KeyTable(groupKeys.size(), expected);
            for (int k = 0; k < groupKeys.size(); k++) {
                keyEncoders.add(KeyEncoder.forGrouping(inputSchema.type(groupKeys.get(k)), keyStrings.get(k), keyIds.get(k)));
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
                    partition[g] = (int) (((table.storedHash(g) & 0xffffffffL) * parts) >>> 32);
                }
            }
            return new StoredKeys(keys, nulls, partition);
        }

        /**
         * Adds the groups and states of {@code partial} (whose keys are {@code keys}) but those
         * flagged in {@code skip} (may be null); string keys need no translation (the ids are shared).
         */
        void merge(Groups partial, StoredKeys keys, boolean[] skip) {
            int[] groupIds = new int[partial.count()];
            if (!groupKeys.isEmpty()) {
                table.add(keys.keys(), keys.nulls(), skip, groupIds, null);
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
            return Column.ofCodes(type, keys, nulls, keyStrings.get(k).build());
        }
        if (type.isWideDecimal()) {
            StringDictionary wideKeys = keyStrings.get(k).build();
            long[] highs = new long[count];
            for (int i = 0; i < count; i++) {
                if (!nulls[i]) {
                    String key = wideKeys.get((int) keys[i]);
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
