package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DISTINCT aggregates (COUNT, SUM, AVG and the variances; MIN and MAX need no DISTINCT) beside any
 * others, with or without GROUP BY. Per DISTINCT argument the rows are made distinct by the
 * group-by itself: grouped on (the row's group number, the argument), every column compared and
 * NULL equal to NULL, one representative row per pair; the calls over that argument then
 * accumulate those rows plainly into the groups their group numbers name. The groups are the
 * node's own, so each aggregate's column lines up with the key columns without a join (TPC-DS
 * q16's {@code COUNT(DISTINCT cs_order_number), SUM(cs_ext_ship_cost)}, or
 * {@code GROUP BY k} with {@code COUNT(DISTINCT a), SUM(b)}). A NULL argument survives as one
 * row per group, which COUNT and SUM skip, so a group of only NULLs still counts 0.
 * {@code COUNT(DISTINCT a, b)} makes the rows distinct on (group number, a, b) and counts those
 * without a NULL argument.
 */
final class DistinctAggregation {
    private DistinctAggregation() {
    }

    /** A DISTINCT that changes the result (not MIN's, MAX's or ANY_VALUE's). */
    static boolean isDistinct(AggCall call) {
        return call.distinct() && call.function() != AggFunction.MIN && call.function() != AggFunction.MAX
                && call.function() != AggFunction.ANY_VALUE;
    }

    /** Whether the GPU computes this DISTINCT call: COUNT of one or several columns, SUM, AVG, a variance. */
    static boolean supports(AggCall call) {
        return switch (call.function()) {
            case COUNT -> true;
            case SUM, AVG -> call.args().size() == 1;
            default -> VarianceAggregation.isVariance(call) && call.args().size() == 1;
        };
    }

    /**
     * The result column of each of {@code calls} (all DISTINCT) over {@code input} in
     * {@code groups} groups ({@code groupIds}: each row's group number; null: one group). The
     * caller owns the columns; the rest stays the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, DeviceTable input, DeviceColumn groupIds, int groups, DeviceWork work) {
        Map<List<Integer>, List<Integer>> byArguments = new LinkedHashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            byArguments.computeIfAbsent(calls.get(i).args(), a -> new ArrayList<>()).add(i);
        }
        DeviceColumn[] results = new DeviceColumn[calls.size()];
        try {
            for (Map.Entry<List<Integer>, List<Integer>> part : byArguments.entrySet()) {
                List<Integer> at = part.getValue();
                List<DeviceColumn> columns = overArguments(at.stream().map(calls::get).toList(), part.getKey(), input, groupIds, groups, work);
                for (int j = 0; j < at.size(); j++) {
                    results[at.get(j)] = columns.get(j);
                }
            }
            return List.of(results);
        } catch (RuntimeException e) {
            Arrays.stream(results).filter(c -> c != null).forEach(DeviceColumn::close);
            throw e;
        }
    }

    /** The columns of {@code calls}, all DISTINCT over the columns {@code args} of {@code input}. */
    private static List<DeviceColumn> overArguments(List<AggCall> calls, List<Integer> args, DeviceTable input, DeviceColumn groupIds,
            int groups, DeviceWork work) {
        List<DeviceColumn> pairColumns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        if (groupIds != null) {
            pairColumns.add(groupIds.share());
            fields.add(new Field("group", groupIds.type()));
        }
        List<Integer> distinctArgs = new ArrayList<>();
        for (int a : args) {
            distinctArgs.add(pairColumns.size());
            pairColumns.add(input.column(a).share());
            fields.add(input.schema().field(a));
        }
        List<AggCall> plain = calls.stream().map(c -> new AggCall(c.function(), distinctArgs, false, c.type(), c.name())).toList();
        try (DeviceTable pairs = new DeviceTable(new Schema(fields), input.rows(), pairColumns);
                Groups distinct = GpuAggregate.rowGroups(pairs, work);
                DeviceTable distinctRows = ColumnGather.gather(pairs, distinct.representatives(), distinct.count(), work)) {
            return GpuAggregate.columns(plain, distinctRows, groupIds == null ? null : distinctRows.column(0).values(), groups, work);
        }
    }
}
