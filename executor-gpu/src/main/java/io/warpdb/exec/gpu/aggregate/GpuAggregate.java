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
import io.warpdb.exec.gpu.expr.ProgramCompiler;
import io.warpdb.exec.gpu.partition.HostTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * GROUP BY with aggregates on the GPU. The groups come from one of three paths ({@link GroupByTuning}):
 * none (one group), a hash table over packed keys, or a radix sort by the keys. Every path yields
 * each row's group and a representative row per group; the aggregates are accumulated per group
 * on the device, the per-group state is finished into values there too ({@link DeviceFinish}, by
 * the CPU's exact decimal rules; the host finishes what the kernel cannot), and the key columns
 * are gathered from the representatives. Variances take passes of their own over the same groups
 * ({@link VarianceAggregation}), DISTINCT aggregates accumulate the distinct rows of each
 * argument into the same groups ({@link DistinctAggregation}) and APPROX_COUNT_DISTINCT counts or
 * sketches the distinct hashes of each group ({@link ApproxDistinctAggregation}), so that every
 * column lines up.
 */
public final class GpuAggregate {
    private GpuAggregate() {
    }

    /**
     * Whether the GPU aggregates this node: wide DECIMALs (more than 18 digits) as group keys (two
     * keys each, {@link KeyColumn#of}), as the arguments of SUM, AVG, MIN and MAX
     * ({@link WideDecimalAggregation}), counted, and as SUM's results; as other aggregates'
     * arguments they run on the CPU.
     */
    public static Support supports(AggregateNode node) {
        Schema input = node.input().schema();
        for (AggCall call : node.aggregates()) {
            boolean takesWide = WideDecimalAggregation.applies(call) || call.function() == AggFunction.COUNT && !call.distinct();
            for (int a : call.args()) {
                if (input.type(a).isWideDecimal() && !takesWide) {
                    return Support.no(call + " over " + input.type(a).sqlName() + " (a wide DECIMAL) runs on the CPU");
                }
            }
            DataType argType = call.args().size() == 1 ? input.type(call.args().get(0)) : null;
            boolean makesWide = call.function() == AggFunction.SUM
                    || WideDecimalAggregation.applies(call) && argType != null && argType.isWideDecimal();
            if (call.type().isWideDecimal() && !makesWide) {
                return Support.no(call + " typed " + call.type().sqlName() + " runs on the CPU");
            }
            AggFunction f = call.function();
            if (DistinctAggregation.isDistinct(call) && !DistinctAggregation.supports(call)) {
                return Support.no(call + ": DISTINCT " + f + " runs on the CPU");
            }
            DataType arg = call.args().isEmpty() ? null : input.type(call.args().get(0));
            TypeKind result = call.type().kind();
            boolean ok = switch (f) {
                case COUNT_STAR, COUNT -> result == TypeKind.BIGINT || result == TypeKind.INTEGER;
                case SUM, AVG -> arg.kind() == TypeKind.DOUBLE ? result == TypeKind.DOUBLE
                        : arg.kind().isExactNumeric() && (result.isNumeric());
                case MIN, MAX, ANY_VALUE, SINGLE_VALUE -> arg.kind() == result && arg.scale() == call.type().scale();
                case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> VarianceAggregation.supports(arg, call.type());
                case APPROX_COUNT_DISTINCT -> ApproxDistinctAggregation.supports(call);
            };
            // A SMALLINT, TINYINT or REAL result of a computation needs the CPU's range check or rounding.
            boolean picked = f == AggFunction.MIN || f == AggFunction.MAX || f == AggFunction.ANY_VALUE || f == AggFunction.SINGLE_VALUE;
            boolean narrowAverage = f == AggFunction.AVG && call.type().isNarrowInteger();
            if (!ok || ProgramCompiler.isCarried(call.type()) && !picked && !narrowAverage) {
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
        List<AggCall> calls = node.aggregates();
        List<Integer> distinct = new ArrayList<>();
        List<Integer> approx = new ArrayList<>();
        List<Integer> plain = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            AggCall call = calls.get(i);
            (ApproxDistinctAggregation.applies(call) ? approx : DistinctAggregation.isDistinct(call) ? distinct : plain).add(i);
        }
        DeviceColumn[] results = new DeviceColumn[calls.size()];
        try (Grouping grouping = grouping(node, input, forced, work)) {
            place(results, plain, columns(plain.stream().map(calls::get).toList(), input, grouping.groupOfRow(), grouping.count(), work));
            place(results, distinct, DistinctAggregation.columns(distinct.stream().map(calls::get).toList(), input, grouping.groupIds(),
                    grouping.count(), work));
            place(results, approx, ApproxDistinctAggregation.columns(approx.stream().map(calls::get).toList(), input, grouping.groupIds(),
                    grouping.count(), work));
            List<DeviceColumn> out = new ArrayList<>();
            if (grouping.keys() != null) {
                grouping.keys().columns().forEach(c -> out.add(c.share()));
            }
            out.addAll(List.of(results));
            return new DeviceTable(node.schema(), grouping.count(), out);
        } catch (RuntimeException e) {
            Arrays.stream(results).filter(c -> c != null).forEach(DeviceColumn::close);
            throw e;
        }
    }

    private static void place(DeviceColumn[] results, List<Integer> at, List<DeviceColumn> columns) {
        for (int j = 0; j < at.size(); j++) {
            results[at.get(j)] = columns.get(j);
        }
    }

    /**
     * The result column of each of {@code calls} (none DISTINCT but MIN/MAX) over the rows of
     * {@code input} in {@code groups} groups ({@code groupOfRow}: int32 per row; null: one group):
     * variances by {@link VarianceAggregation}, aggregates of wide DECIMALs by {@link WideDecimalAggregation},
     * the others accumulated and finished on the device
     * ({@link DeviceFinish}). The caller owns the columns; the rest stays the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, DeviceTable input, DeviceBuffer groupOfRow, int groups, DeviceWork work) {
        List<Integer> variances = new ArrayList<>();
        List<Integer> wideArguments = new ArrayList<>();
        List<Integer> others = new ArrayList<>();
        DeviceColumn[] results = new DeviceColumn[calls.size()];
        try (Arguments arguments = Arguments.of(calls, input, work)) {
            List<KeyColumn> args = arguments.keys();
            for (int i = 0; i < calls.size(); i++) {
                (VarianceAggregation.isVariance(calls.get(i)) ? variances
                        : WideDecimalAggregation.applies(calls.get(i), args.get(i)) ? wideArguments : others).add(i);
            }
            if (!others.isEmpty()) {
                List<KeyColumn> otherArgs = others.stream().map(args::get).toList();
                List<AggCall> otherCalls = others.stream().map(calls::get).toList();
                List<Accumulation.DeviceState> states = Accumulation.run(otherCalls, otherArgs, groupOfRow, groups, input.rows(), work);
                try {
                    place(results, others, DeviceFinish.columns(otherCalls, otherArgs, states, groups, work));
                } finally {
                    states.forEach(Accumulation.DeviceState::close);
                }
            }
            if (!variances.isEmpty()) {
                place(results, variances, VarianceAggregation.columns(variances.stream().map(calls::get).toList(),
                        variances.stream().map(args::get).toList(), groupOfRow, groups, input.rows(), work));
            }
            if (!wideArguments.isEmpty()) {
                place(results, wideArguments, WideDecimalAggregation.columns(wideArguments.stream().map(calls::get).toList(),
                        wideArguments.stream().map(args::get).toList(), groupOfRow, groups, input.rows(), work));
            }
            return List.of(results);
        } catch (RuntimeException e) {
            Arrays.stream(results).filter(c -> c != null).forEach(DeviceColumn::close);
            throw e;
        }
    }

    /**
     * Each call's argument as a key column of the input (null for COUNT(*); for COUNT of several
     * columns, a column valid where none of them is NULL, owned here); closing closes them all.
     */
    private record Arguments(List<KeyColumn> keys, List<DeviceColumn> owned) implements AutoCloseable {
        static Arguments of(List<AggCall> calls, DeviceTable input, DeviceWork work) {
            Arguments args = new Arguments(new ArrayList<>(), new ArrayList<>());
            try {
                for (AggCall call : calls) {
                    DeviceColumn column = null;
                    if (call.args().size() == 1) {
                        column = input.column(call.args().get(0));
                    } else if (call.args().size() > 1) {
                        column = Accumulation.allValid(call.args().stream().map(input::column).toList(), input.rows(), work);
                        args.owned().add(column);
                    }
                    args.keys().add(column == null ? null : call.function() == AggFunction.ANY_VALUE ? KeyColumn.forAnyValue(column, work)
                            : KeyColumn.forAccumulation(column, work));
                }
                return args;
            } catch (RuntimeException e) {
                args.close();
                throw e;
            }
        }

        @Override
        public void close() {
            keys.stream().filter(a -> a != null).forEach(KeyColumn::close);
            owned.forEach(DeviceColumn::close);
        }
    }

    /**
     * The groups of {@code input} with each aggregate's state left unfinished, on the host: the
     * partial aggregate of one chunk of a larger input ({@link ChunkedAggregation} merges them).
     * DISTINCT aggregates other than MIN and MAX, and variances, have no mergeable state and are refused.
     */
    static PartialAggregate partial(AggregateNode node, DeviceTable input, BufferAllocator allocator, DeviceWork work) {
        if (!ChunkedAggregation.mergeable(node)) {
            throw new IllegalArgumentException("DISTINCT aggregates do not merge across chunks: " + node.describe());
        }
        try (Arguments args = Arguments.of(node.aggregates(), input, work); Grouping grouping = grouping(node, input, null, work)) {
            int groups = grouping.count();
            List<Accumulation.DeviceState> deviceStates = Accumulation.run(node.aggregates(), args.keys(), grouping.groupOfRow(), groups,
                    input.rows(), work);
            List<Accumulation.State> states = new ArrayList<>();
            try {
                for (Accumulation.DeviceState state : deviceStates) {
                    states.add(state.download(groups, work));
                }
            } finally {
                deviceStates.forEach(Accumulation.DeviceState::close);
            }
            HostTable keys = grouping.keys() == null ? new HostTable(keySchema(node), List.of())
                    : HostTable.download(grouping.keys(), allocator, work);
            return new PartialAggregate(keys, groups, states);
        }
    }

    /**
     * The rows of {@code input} grouped by the node's keys: without keys one group (of no row
     * numbers); with keys each row's group number and the keys of each group. The caller closes it.
     */
    private static Grouping grouping(AggregateNode node, DeviceTable input, AggregationPath forced, DeviceWork work) {
        if (node.groupKeys().isEmpty()) {
            if (forced != null && forced != AggregationPath.UNGROUPED) {
                throw new IllegalArgumentException(forced + " needs group keys");
            }
            return new Grouping(null, null, 1);
        }
        int rows = input.rows();
        List<KeyColumn> keys = new ArrayList<>();
        Groups groups = null;
        DeviceColumn groupIds = null;
        try {
            for (int k : node.groupKeys()) {
                keys.addAll(KeyColumn.of(input.column(k), true, work));
            }
            groups = group(keys, rows, forced, work);
            groupIds = new DeviceColumn(DataType.INTEGER.withNullable(false), rows, groups.groupOfRow(), null, null);
            try (DeviceTable keyTable = new DeviceTable(keySchema(node), rows,
                    node.groupKeys().stream().map(k -> input.column(k).share()).toList())) {
                return new Grouping(ColumnGather.gather(keyTable, groups.representatives(), groups.count(), work), groupIds,
                        groups.count());
            }
        } catch (RuntimeException e) {
            if (groupIds != null) {
                groupIds.close();
            } else if (groups != null) {
                groups.groupOfRow().close();
            }
            throw e;
        } finally {
            if (groups != null) {
                groups.representatives().close();
            }
            keys.forEach(KeyColumn::close);
        }
    }

    private static Schema keySchema(AggregateNode node) {
        return node.input().schema().select(node.groupKeys());
    }

    /**
     * Rows grouped: the groups' key columns (null without keys), each row's group number as an
     * INTEGER column (null without keys: one group) and the number of groups; owned.
     */
    private record Grouping(DeviceTable keys, DeviceColumn groupIds, int count) implements AutoCloseable {
        DeviceBuffer groupOfRow() {
            return groupIds == null ? null : groupIds.values();
        }

        @Override
        public void close() {
            if (keys != null) {
                keys.close();
            }
            if (groupIds != null) {
                groupIds.close();
            }
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
        return rowGroups(table, true, work);
    }

    /**
     * As {@link #rowGroups(DeviceTable, DeviceWork)}; {@code forEquality} false keeps -0.0 and 0.0
     * apart (values whose texts differ), as MIN and MAX order them.
     */
    public static Groups rowGroups(DeviceTable table, boolean forEquality, DeviceWork work) {
        List<KeyColumn> keys = new ArrayList<>();
        try {
            for (DeviceColumn c : table.columns()) {
                keys.addAll(KeyColumn.of(c, forEquality, work));
            }
            return group(keys, table.rows(), null, work);
        } finally {
            keys.forEach(KeyColumn::close);
        }
    }

    private static Groups group(List<KeyColumn> keys, int rows, AggregationPath forced, DeviceWork work) {
        List<KeyColumn.KeyRange> ranges = new ArrayList<>();
        for (KeyColumn key : keys) {
            ranges.add(key.range(work));
        }
        KeyPacking packing = KeyPacking.of(ranges, rows);
        AggregationPath path = forced != null ? forced : GroupByTuning.path(keys.size(), packing);
        try (DeviceBuffer keyDescriptors = work.upload(KeyColumn.descriptors(keys), "group key descriptors")) {
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
