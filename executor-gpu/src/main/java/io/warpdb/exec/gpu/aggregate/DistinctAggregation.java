package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DISTINCT aggregates in two group-bys: the first keeps one row per (group keys, argument), the
 * second aggregates those rows plainly. It applies when every aggregate reads the same one
 * argument (COUNT/SUM/AVG DISTINCT, and MIN/MAX, which duplicates do not change), as in
 * {@code COUNT(DISTINCT ps_suppkey)}; NULL arguments survive the first step as one row per group,
 * which the second step's COUNT/SUM skip, so a group of only NULLs still counts 0. Without group
 * keys the aggregates may also mix: those over each DISTINCT argument are computed so, the plain
 * ones (and MIN/MAX) by one plain aggregation, and the one-row results are set side by side
 * (TPC-DS q16's {@code COUNT(DISTINCT cs_order_number), SUM(cs_ext_ship_cost)}, q28's
 * {@code AVG(p), COUNT(p), COUNT(DISTINCT p)}).
 */
final class DistinctAggregation {
    private DistinctAggregation() {
    }

    /** Whether {@code node} has DISTINCT aggregates this rewrite computes. */
    static boolean applies(AggregateNode node) {
        return overOneArgument(node) || node.groupKeys().isEmpty() && mixed(node);
    }

    private static boolean overOneArgument(AggregateNode node) {
        Integer arg = null;
        boolean anyDistinct = false;
        for (AggCall call : node.aggregates()) {
            if (call.args().size() != 1 || call.function() == AggFunction.SINGLE_VALUE) {
                return false;
            }
            if (!call.distinct() && !isMinMax(call)) {
                return false;
            }
            anyDistinct |= distinct(call);
            if (arg != null && !arg.equals(call.args().get(0))) {
                return false;
            }
            arg = call.args().get(0);
        }
        return anyDistinct;
    }

    /** Whether some aggregate is DISTINCT (but MIN/MAX) and every such one has one argument. */
    private static boolean mixed(AggregateNode node) {
        boolean anyDistinct = false;
        for (AggCall call : node.aggregates()) {
            if (distinct(call) && (call.args().size() != 1 || call.function() == AggFunction.SINGLE_VALUE)) {
                return false;
            }
            anyDistinct |= distinct(call);
        }
        return anyDistinct;
    }

    /** A DISTINCT that changes the result (not MIN/MAX's). */
    private static boolean distinct(AggCall call) {
        return call.distinct() && !isMinMax(call);
    }

    private static boolean isMinMax(AggCall call) {
        return call.function() == AggFunction.MIN || call.function() == AggFunction.MAX;
    }

    static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work) {
        return overOneArgument(node) ? overOneArgument(node, input, work) : mixed(node, input, work);
    }

    private static DeviceTable overOneArgument(AggregateNode node, DeviceTable input, DeviceWork work) {
        int arg = node.aggregates().get(0).args().get(0);
        List<Integer> dedupeKeys = new ArrayList<>(node.groupKeys());
        dedupeKeys.add(arg);
        Schema dedupeSchema = input.schema().select(dedupeKeys);
        AggregateNode dedupe = new AggregateNode(node.input(), dedupeKeys, List.of(), dedupeSchema);
        List<Integer> keys = new ArrayList<>();
        for (int k = 0; k < node.groupKeys().size(); k++) {
            keys.add(k);
        }
        List<AggCall> plain = node.aggregates().stream()
                .map(c -> new AggCall(c.function(), List.of(keys.size()), false, c.type(), c.name())).toList();
        List<Field> fields = dedupeSchema.fields();
        AggregateNode aggregate = new AggregateNode(new ValuesNode(new Schema(fields), List.of()), keys, plain, node.schema());
        try (DeviceTable distinctRows = GpuAggregate.run(dedupe, input, work)) {
            return GpuAggregate.run(aggregate, distinctRows, work);
        }
    }

    /** Without group keys: one aggregation per DISTINCT argument and one of the plain aggregates, each one row. */
    private static DeviceTable mixed(AggregateNode node, DeviceTable input, DeviceWork work) {
        Map<Integer, List<Integer>> parts = new LinkedHashMap<>();
        List<AggCall> calls = node.aggregates();
        for (int i = 0; i < calls.size(); i++) {
            parts.computeIfAbsent(distinct(calls.get(i)) ? calls.get(i).args().get(0) : -1, a -> new ArrayList<>()).add(i);
        }
        DeviceColumn[] columns = new DeviceColumn[calls.size()];
        try {
            for (List<Integer> part : parts.values()) {
                List<Field> fields = part.stream().map(i -> node.schema().field(i)).toList();
                AggregateNode aggregate = new AggregateNode(node.input(), List.of(), part.stream().map(calls::get).toList(),
                        new Schema(fields));
                try (DeviceTable row = GpuAggregate.run(aggregate, input, work)) {
                    for (int j = 0; j < part.size(); j++) {
                        columns[part.get(j)] = row.column(j).share();
                    }
                }
            }
        } catch (RuntimeException e) {
            Arrays.stream(columns).filter(c -> c != null).forEach(DeviceColumn::close);
            throw e;
        }
        return new DeviceTable(node.schema(), 1, List.of(columns));
    }
}
