package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.column.HostToDevice;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.partition.TaskRunner;
import io.warpdb.exec.gpu.partition.UsedDictionaryEntries;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import io.warpdb.exec.gpu.sort.StringRanks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;

/**
 * GROUP BY over rows that no partitioning can bring within the device budget because their
 * groups are few: an aggregation without group keys, or a group larger than a stream's share
 * (the hot group no hash bits split). The rows are cut into chunks that fit in core; each chunk is
 * grouped and accumulated on the device ({@link GpuAggregate#partial}) and its states brought
 * back unfinished; then the chunks' groups are grouped once more on the device (their keys
 * together), the states of matching groups combined (counts and exact 128-bit sums added, MIN and
 * MAX compared as ordered keys) and finished by the host's exact rules ({@link AggregateResults}).
 * String MIN/MAX arguments are recoded to one dictionary first, so that every chunk ranks their
 * values alike.
 */
final class ChunkedAggregation {
    private ChunkedAggregation() {
    }

    /**
     * Whether the node's aggregates have states that merge across chunks: all but DISTINCT ones
     * (MIN and MAX aside), APPROX_COUNT_DISTINCT (whose distinct hashes the chunks' states do not
     * carry), variances (whose sum of squares needs its sum beside it, which the chunks'
     * partial states do not carry) and aggregates of wide DECIMALs (two states each, {@link WideDecimalAggregation}).
     */
    static boolean mergeable(AggregateNode node) {
        Schema input = node.input().schema();
        for (AggCall call : node.aggregates()) {
            boolean wideArgument = call.args().size() == 1 && input.type(call.args().get(0)).isWideDecimal();
            if (DistinctAggregation.isDistinct(call) || ApproxDistinctAggregation.applies(call) || VarianceAggregation.isVariance(call)
                    || wideArgument) {
                return false;
            }
        }
        return true;
    }

    /**
     * The groups of {@code input} (which stays the caller's), aggregated in chunks of at most
     * {@code chunkRows} rows whose tasks {@code runner} runs; the merge runs as one more task.
     */
    static HostTable run(AggregateNode node, HostTable input, long chunkRows, TaskRunner runner, BufferAllocator allocator) {
        try (HostTable rows = UsedDictionaryEntries.of(input, allocator, stringMinMaxArguments(node))) {
            List<PartialAggregate> partials = new ArrayList<>();
            try {
                List<List<Batch>> chunks = rows.chunks(chunkRows, allocator);
                try {
                    List<TaskRunner.Task<PartialAggregate>> tasks = new ArrayList<>();
                    for (List<Batch> chunk : chunks) {
                        tasks.add(work -> {
                            try (DeviceTable table = HostToDevice.upload(rows.schema(), chunk, work)) {
                                return GpuAggregate.partial(node, table, allocator, work);
                            }
                        });
                    }
                    partials.addAll(runner.run(tasks));
                } finally {
                    chunks.forEach(c -> c.forEach(Batch::close));
                }
                // Every chunk's string column shares one dictionary (recoded so): its ranks are the states' keys.
                IntFunction<StringDictionary> dictionaryOf = c -> rows.batches().isEmpty() ? StringDictionary.EMPTY
                        : rows.batches().get(0).dictionary(c);
                List<TaskRunner.Task<HostTable>> merge = List.of(work -> merge(node, partials, dictionaryOf, allocator, work));
                return runner.run(merge).get(0);
            } finally {
                partials.forEach(PartialAggregate::close);
            }
        }
    }

    /** The input columns that string MIN or MAX aggregates read. */
    static Set<Integer> stringMinMaxArguments(AggregateNode node) {
        Set<Integer> columns = new HashSet<>();
        Schema input = node.input().schema();
        for (AggCall call : node.aggregates()) {
            if (!call.args().isEmpty() && input.type(call.args().get(0)).kind().isString()) {
                columns.add(call.args().get(0));
            }
        }
        return columns;
    }

    /**
     * The partials' groups merged and finished, as host rows of the node's schema; {@code
     * dictionaryOf} gives the one dictionary of a string column that MIN or MAX reads, whose
     * ranks the partials' states hold.
     */
    static HostTable merge(AggregateNode node, List<PartialAggregate> partials, IntFunction<StringDictionary> dictionaryOf,
            BufferAllocator allocator, DeviceWork work) {
        int total = partials.stream().mapToInt(PartialAggregate::groups).sum();
        List<DeviceColumn> out = new ArrayList<>();
        try {
            int groups;
            int[] groupOf;
            if (node.groupKeys().isEmpty()) {
                groups = 1;  // one group, also over no rows: COUNT(*) 0, SUM NULL
                groupOf = new int[total];
            } else {
                List<Batch> keyBatches = new ArrayList<>();
                partials.forEach(p -> keyBatches.addAll(p.keys().batches()));
                Schema keySchema = node.input().schema().select(node.groupKeys());
                try (DeviceTable keys = HostToDevice.upload(keySchema, keyBatches, work)) {
                    groupOf = total == 0 ? new int[0] : groupNumbers(keys, work);
                    int[] representatives = firstRows(groupOf);
                    groups = representatives.length;
                    if (groups > 0) {
                        try (DeviceBuffer ids = work.upload(representatives, "merged group representatives");
                                DeviceTable gathered = ColumnGather.gather(keys, ids, groups, work)) {
                            gathered.columns().forEach(c -> out.add(c.share()));
                        }
                    } else {
                        keys.columns().forEach(c -> out.add(c.share()));
                    }
                }
            }
            for (int i = 0; i < node.aggregates().size(); i++) {
                out.add(finish(node, dictionaryOf, i, mergedState(node, i, partials, groupOf, groups), work));
            }
            try (DeviceTable result = new DeviceTable(node.schema(), groups, List.copyOf(out))) {
                out.clear();
                return HostTable.download(result, allocator, work);
            }
        } finally {
            out.forEach(DeviceColumn::close);
        }
    }

    /** Each partial group's number among the distinct keys of all of them (numbers 0.. in no particular order). */
    private static int[] groupNumbers(DeviceTable keys, DeviceWork work) {
        try (DeviceBuffer numbers = GpuAggregate.rowGroupNumbers(keys, work)) {
            return work.downloadInts(numbers, keys.rows());
        }
    }

    /** Per group number, the first row that has it. */
    private static int[] firstRows(int[] groupOf) {
        int groups = 0;
        for (int g : groupOf) {
            groups = Math.max(groups, g + 1);
        }
        int[] first = new int[groups];
        Arrays.fill(first, -1);
        for (int row = 0; row < groupOf.length; row++) {
            if (first[groupOf[row]] < 0) {
                first[groupOf[row]] = row;
            }
        }
        return first;
    }

    /** Aggregate {@code i}'s states of every partial combined per merged group. */
    private static Accumulation.State mergedState(AggregateNode node, int i, List<PartialAggregate> partials, int[] groupOf,
            int groups) {
        AggCall call = node.aggregates().get(i);
        DataType argType = argumentType(node, call);
        int op = Accumulation.op(call, argType);
        long[] count = new long[groups];
        long[] a = new long[groups];
        long[] b = new long[groups];
        if (op == Accumulation.OP_MIN || op == Accumulation.OP_SINGLE_VALUE) {
            Arrays.fill(a, -1L);  // the largest ordered key, as the kernel starts
        }
        int at = 0;
        for (PartialAggregate partial : partials) {
            Accumulation.State s = partial.states().get(i);
            for (int g = 0; g < partial.groups(); g++, at++) {
                int m = groupOf[at];
                long n = s.count()[g];
                switch (op) {
                    case Accumulation.OP_SUM_EXACT -> {
                        long low = a[m] + s.a()[g];
                        long carry = Long.compareUnsigned(low, a[m]) < 0 ? 1 : 0;
                        a[m] = low;
                        b[m] += s.b()[g] + carry;
                    }
                    case Accumulation.OP_SUM_DOUBLE -> a[m] = Double.doubleToRawLongBits(
                            Double.longBitsToDouble(a[m]) + Double.longBitsToDouble(s.a()[g]));
                    case Accumulation.OP_MIN, Accumulation.OP_SINGLE_VALUE -> {
                        if (n > 0 && Long.compareUnsigned(s.a()[g], a[m]) < 0) {
                            a[m] = s.a()[g];
                        }
                        b[m] |= s.b()[g];
                    }
                    case Accumulation.OP_MAX -> {
                        if (n > 0 && Long.compareUnsigned(s.a()[g], a[m]) > 0) {
                            a[m] = s.a()[g];
                        }
                    }
                    default -> { }  // the counts alone
                }
                count[m] += n;
            }
        }
        return new Accumulation.State(count, a, b);
    }

    /** Aggregate {@code i}'s result column from its merged state. */
    private static DeviceColumn finish(AggregateNode node, IntFunction<StringDictionary> dictionaryOf, int i, Accumulation.State state,
            DeviceWork work) {
        AggCall call = node.aggregates().get(i);
        DataType argType = argumentType(node, call);
        if (argType == null) {
            return AggregateResults.column(call, null, 0, null, state, work);
        }
        if (!argType.kind().isString()) {
            return AggregateResults.column(call, argType, KeyColumn.kindOf(argType, false), null, state, work);
        }
        StringDictionary dictionary = dictionaryOf.apply(call.args().get(0));
        return call.function() == AggFunction.ANY_VALUE ? AggregateResults.column(call, argType, KeyColumn.CODE, dictionary, state, work)
                : AggregateResults.column(call, argType, KeyColumn.RANK, StringRanks.of(dictionary).byRank(), state, work);
    }

    private static DataType argumentType(AggregateNode node, AggCall call) {
        return call.args().isEmpty() ? null : node.input().schema().type(call.args().get(0));
    }
}
