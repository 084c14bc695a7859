package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.exec.Support;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * GROUP BY with aggregates on the GPU. The groups come from one of three paths ({@link GroupByTuning}):
 * none (one group), a hash table over packed keys, or a radix sort by the keys. Every path yields
 * each row's group and a representative row per group; the aggregates are accumulated per group
 * on the device, the per-group state is finished into values there too ({@link DeviceFinish}, by
 * the CPU's exact decimal rules; the host finishes what the kernel cannot), and the key columns
 * are gathered from the representatives.
 */
public final class GpuAggregate {
    private GpuAggregate() {
    }

    public static Support supports(AggregateNode node) {
        Schema input = node.input().schema();
        for (AggCall call : node.aggregates()) {
            AggFunction f = call.function();
            boolean minMax = f == AggFunction.MIN || f == AggFunction.MAX;
            if (call.distinct() && !minMax && !DistinctAggregation.applies(node)) {
                return Support.no("DISTINCT aggregates over several columns, or with GROUP BY over different arguments or next to"
                        + " other aggregates, run on the CPU");
            }
            DataType arg = call.args().isEmpty() ? null : input.type(call.args().get(0));
            TypeKind result = call.type().kind();
            boolean ok = switch (f) {
                case COUNT_STAR, COUNT -> result == TypeKind.BIGINT || result == TypeKind.INTEGER;
                case SUM, AVG -> arg.kind() == TypeKind.DOUBLE ? result == TypeKind.DOUBLE
                        : arg.kind().isExactNumeric() && (result.isNumeric());
                case MIN, MAX, SINGLE_VALUE -> arg.kind() == result && arg.scale() == call.type().scale();
                case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> VarianceAggregation.supports(arg, call.type());
                case APPROX_COUNT_DISTINCT -> false;
            };
            if (!ok) {
                return Support.no(call + " typed " + call.type() + " over " + (arg == null ? "no argument" : arg) + " is not supported on the GPU");
            }
        }
        return Support.YES;
    }

    public static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work) {
        return run(node, input, work, null);
    }

    /** {@code forced}: the path to take (tests), null to let {@link GroupByTuning} choose. */
    static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work, AggregationPath forced) {
        if (DistinctAggregation.applies(node)) {
            return DistinctAggregation.run(node, input, work);
        }
        List<DeviceColumn> out = new ArrayList<>();
        boolean variances = node.aggregates().stream().anyMatch(VarianceAggregation::isVariance);
        List<AggCall> calls = variances ? VarianceAggregation.withSums(node.aggregates()) : node.aggregates();
        try (Accumulated accumulated = accumulate(node, calls, input, forced, work)) {
            if (accumulated.keys() != null) {
                accumulated.keys().columns().forEach(c -> out.add(c.share()));
            }
            out.addAll(variances
                    ? VarianceAggregation.columns(node.aggregates(), accumulated.args(), accumulated.states(), accumulated.groups(), work)
                    : DeviceFinish.columns(node.aggregates(), accumulated.args(), accumulated.states(), accumulated.groups(), work));
            return new DeviceTable(node.schema(), accumulated.groups(), out);
        } catch (RuntimeException e) {
            out.forEach(DeviceColumn::close);
            throw e;
        }
    }

    /**
     * The groups of {@code input} with each aggregate's state left unfinished, on the host: the
     * partial aggregate of one chunk of a larger input ({@link ChunkedAggregation} merges them).
     * DISTINCT aggregates other than MIN and MAX have no mergeable state and are refused.
     */
    static PartialAggregate partial(AggregateNode node, DeviceTable input, BufferAllocator allocator, DeviceWork work) {
        if (!ChunkedAggregation.mergeable(node)) {
            throw new IllegalArgumentException("DISTINCT aggregates do not merge across chunks: " + node.describe());
        }
        try (Accumulated accumulated = accumulate(node, node.aggregates(), input, null, work)) {
            int groups = accumulated.groups();
            List<Accumulation.State> states = new ArrayList<>();
            for (Accumulation.DeviceState state : accumulated.states()) {
                states.add(state.download(groups, work));
            }
            HostTable keys = accumulated.keys() == null ? new HostTable(keySchema(node), List.of())
                    : HostTable.download(accumulated.keys(), allocator, work);
            return new PartialAggregate(keys, groups, states);
        }
    }

    /** The rows of {@code input} grouped by the node's keys and {@code calls} accumulated (not finished); the caller closes it. */
    private static Accumulated accumulate(AggregateNode node, List<AggCall> calls, DeviceTable input, AggregationPath forced,
            DeviceWork work) {
        int rows = input.rows();
        List<KeyColumn> keys = new ArrayList<>();
        List<KeyColumn> args = new ArrayList<>();
        Groups groups = null;
        DeviceTable gathered = null;
        List<Accumulation.DeviceState> states = null;
        try {
            for (int k : node.groupKeys()) {
                keys.add(new KeyColumn(input.column(k), true, work));
            }
            for (AggCall call : calls) {
                args.add(call.args().isEmpty() ? null : new KeyColumn(input.column(call.args().get(0)), false, work));
            }
            int groupCount = 1;
            if (!keys.isEmpty()) {
                groups = group(keys, rows, forced, work);
                groupCount = groups.count();
                try (DeviceTable keyTable = new DeviceTable(keySchema(node), rows, keys.stream().map(k -> k.column().share()).toList())) {
                    gathered = ColumnGather.gather(keyTable, groups.representatives(), groupCount, work);
                }
            } else if (forced != null && forced != AggregationPath.UNGROUPED) {
                throw new IllegalArgumentException(forced + " needs group keys");
            }
            states = Accumulation.run(calls, args, groups, groupCount, rows, work);
            return new Accumulated(gathered, args, states, groupCount);
        } catch (RuntimeException e) {
            if (gathered != null) {
                gathered.close();
            }
            args.stream().filter(a -> a != null).forEach(KeyColumn::close);
            throw e;
        } finally {
            if (groups != null) {
                groups.close();
            }
            keys.forEach(KeyColumn::close);
        }
    }

    private static Schema keySchema(AggregateNode node) {
        return node.input().schema().select(node.groupKeys());
    }

    /** Groups accumulated on the device: their keys (null without group keys), the aggregates' arguments and states; owned. */
    private record Accumulated(DeviceTable keys, List<KeyColumn> args, List<Accumulation.DeviceState> states, int groups)
            implements AutoCloseable {
        @Override
        public void close() {
            if (keys != null) {
                keys.close();
            }
            states.forEach(Accumulation.DeviceState::close);
            args.stream().filter(a -> a != null).forEach(KeyColumn::close);
        }
    }

    /**
     * Each row's number among the distinct rows of {@code table} (all columns compared, NULL
     * equal to NULL, -0.0 equal to 0.0), numbered by the path the tuning rules pick, as the
     * GROUP BY of every column would group them; the caller closes the int32 buffer.
     */
    public static DeviceBuffer rowGroupNumbers(DeviceTable table, DeviceWork work) {
        Groups groups = rowGroups(table, work);
        groups.representatives().close();
        return groups.groupOfRow();
    }

    /** As {@link #rowGroupNumbers}, with a representative row of each group (owned by the caller). */
    public static Groups rowGroups(DeviceTable table, DeviceWork work) {
        List<KeyColumn> keys = new ArrayList<>();
        try {
            for (DeviceColumn c : table.columns()) {
                keys.add(new KeyColumn(c, true, work));
            }
            return group(keys, table.rows(), null, work);
        } finally {
            keys.forEach(KeyColumn::close);
        }
    }

    private static Groups group(List<KeyColumn> keys, int rows, AggregationPath forced, DeviceWork work) {
        List<KeyColumn.KeyRange> ranges = new ArrayList<>();
        long[] descriptors = new long[keys.size() * 4];
        for (int k = 0; k < keys.size(); k++) {
            ranges.add(keys.get(k).range(work));
            System.arraycopy(keys.get(k).descriptor(), 0, descriptors, 4 * k, 4);
        }
        KeyPacking packing = KeyPacking.of(ranges, rows);
        AggregationPath path = forced != null ? forced : GroupByTuning.path(keys.size(), packing);
        try (DeviceBuffer keyDescriptors = work.upload(descriptors, "group key descriptors")) {
            return switch (path) {
                case HASH -> {
                    if (packing == null) {
                        throw new IllegalArgumentException("the group keys do not pack into 63 bits");
                    }
                    yield HashGrouping.group(keyDescriptors, keys.size(), packing, rows, work);
                }
                case SORT -> SortGrouping.group(keys, keyDescriptors, rows, work);
                case UNGROUPED -> throw new IllegalArgumentException("UNGROUPED with group keys");
            };
        }
    }
}
