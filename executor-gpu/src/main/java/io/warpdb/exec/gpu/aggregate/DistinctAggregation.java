package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.plan.AggregateNode;
import io.warpdb.core.plan.ValuesNode;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.List;

/**
 * DISTINCT aggregates in two group-bys: the first keeps one row per (group keys, argument), the
 * second aggregates those rows plainly. It applies when every aggregate reads the same one
 * argument (COUNT/SUM/AVG DISTINCT, and MIN/MAX, which duplicates do not change), as in
 * {@code COUNT(DISTINCT ps_suppkey)}; NULL arguments survive the first step as one row per group,
 * which the second step's COUNT/SUM skip, so a group of only NULLs still counts 0.
 */
final class DistinctAggregation {
    private DistinctAggregation() {
    }

    /** Whether {@code node} has DISTINCT aggregates this rewrite computes. */
    static boolean applies(AggregateNode node) {
        Integer arg = null;
        boolean anyDistinct = false;
        for (AggCall call : node.aggregates()) {
            if (call.args().size() != 1 || call.function() == AggFunction.SINGLE_VALUE) {
                return false;
            }
            boolean minMax = call.function() == AggFunction.MIN || call.function() == AggFunction.MAX;
            if (!call.distinct() && !minMax) {
                return false;
            }
            anyDistinct |= call.distinct() && !minMax;
            if (arg != null && !arg.equals(call.args().get(0))) {
                return false;
            }
            arg = call.args().get(0);
        }
        return anyDistinct;
    }

    static DeviceTable run(AggregateNode node, DeviceTable input, DeviceWork work) {
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
}
