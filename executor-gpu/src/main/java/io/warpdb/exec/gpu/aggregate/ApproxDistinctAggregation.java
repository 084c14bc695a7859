package io.warpdb.exec.gpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.AggCall;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Field;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.HyperLogLog;
import io.warpdb.exec.gpu.column.ColumnGather;
import io.warpdb.exec.gpu.column.DeviceColumn;
import io.warpdb.exec.gpu.column.DeviceTable;
import io.warpdb.exec.gpu.runtime.DeviceBuffer;
import io.warpdb.exec.gpu.runtime.DeviceWork;
import io.warpdb.exec.gpu.sort.GridSize;
import io.warpdb.exec.gpu.sort.KeyColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * APPROX_COUNT_DISTINCT(x) with the CPU's answers ({@link HyperLogLog}, whose estimate depends
 * only on the set of distinct hashes added): each row's value hashed as the CPU hashes it
 * (aggregate/approx_distinct.cu), the distinct (group number, hash) pairs found by the group-by
 * itself and counted per group; a group of at most {@link HyperLogLog#SPARSE_LIMIT} hashes has
 * that exact count, as the CPU's sparse sketch, and each larger one gets a register block filled
 * from its distinct hashes and summed on the device, finished by {@link HyperLogLog#denseEstimate}.
 * Register blocks go only to groups of more than SPARSE_LIMIT distinct hashes: at most 16 bytes
 * per distinct row.
 */
final class ApproxDistinctAggregation {
    private static final String MODULE = "aggregate/approx_distinct";

    private ApproxDistinctAggregation() {
    }

    static boolean applies(AggCall call) {
        return call.function() == AggFunction.APPROX_COUNT_DISTINCT;
    }

    /** Whether the GPU computes this call: one argument, a count result. */
    static boolean supports(AggCall call) {
        TypeKind result = call.type().kind();
        return call.args().size() == 1 && (result == TypeKind.BIGINT || result == TypeKind.INTEGER);
    }

    /**
     * The result column of each of {@code calls} (all APPROX_COUNT_DISTINCT) over {@code input} in
     * {@code groups} groups ({@code groupIds}: each row's group number; null: one group). The
     * caller owns the columns; the rest stays the caller's.
     */
    static List<DeviceColumn> columns(List<AggCall> calls, DeviceTable input, DeviceColumn groupIds, int groups, DeviceWork work) {
        List<DeviceColumn> results = new ArrayList<>();
        try {
            for (AggCall call : calls) {
                long[] estimates = estimates(input.column(call.args().get(0)), groupIds, groups, work);
                results.add(countColumn(estimates, call.type(), work));
            }
            return results;
        } catch (RuntimeException e) {
            results.forEach(DeviceColumn::close);
            throw e;
        }
    }

    /** Each group's estimate of the distinct non-NULL values of {@code values}. */
    private static long[] estimates(DeviceColumn values, DeviceColumn groupIds, int groups, DeviceWork work) {
        List<DeviceColumn> pairColumns = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        if (groupIds != null) {
            pairColumns.add(groupIds.share());
            fields.add(new Field("group", groupIds.type()));
        }
        try {
            pairColumns.add(hashes(values, work));
        } catch (RuntimeException e) {
            pairColumns.forEach(DeviceColumn::close);
            throw e;
        }
        fields.add(new Field("hash", DataType.BIGINT));
        int hashColumn = fields.size() - 1;
        try (DeviceTable pairs = new DeviceTable(new Schema(fields), values.rows(), pairColumns);
                Groups distinct = GpuAggregate.rowGroups(pairs, work);
                DeviceTable distinctPairs = ColumnGather.gather(pairs, distinct.representatives(), distinct.count(), work)) {
            DeviceBuffer groupOfPair = groupIds == null ? null : distinctPairs.column(0).values();
            AggCall count = new AggCall(AggFunction.COUNT, List.of(hashColumn), false, DataType.BIGINT, "distinct hashes");
            long[] counts;
            try (DeviceColumn countColumn = GpuAggregate.columns(List.of(count), distinctPairs, groupOfPair, groups, work).get(0)) {
                counts = groups == 0 ? new long[0] : work.downloadLongs(countColumn.values(), groups);
            }
            estimateDenseGroups(counts, distinctPairs.column(hashColumn), groupOfPair, distinctPairs.rows(), work);
            return counts;
        }
    }

    /**
     * Replaces the count of each group of more than SPARSE_LIMIT distinct hashes by its register
     * estimate; {@code hashes} holds the distinct pairs' hashes, {@code groupOfPair} their groups.
     */
    private static void estimateDenseGroups(long[] counts, DeviceColumn hashes, DeviceBuffer groupOfPair, int pairs, DeviceWork work) {
        int[] blockOfGroup = new int[counts.length];
        int blocks = 0;
        for (int g = 0; g < counts.length; g++) {
            blockOfGroup[g] = counts[g] > HyperLogLog.SPARSE_LIMIT ? blocks++ : -1;
        }
        if (blocks == 0) {
            return;
        }
        try (DeviceBuffer blockBuffer = work.upload(blockOfGroup, "HyperLogLog block of each group");
                DeviceBuffer registers = work.allocateZeroed((long) blocks * HyperLogLog.REGISTERS, "HyperLogLog registers");
                DeviceBuffer inverseSums = work.allocate((long) blocks * Double.BYTES, "HyperLogLog sums of 2^-register");
                DeviceBuffer empties = work.allocate((long) blocks * Long.BYTES, "HyperLogLog empty registers")) {
            work.kernel(MODULE, "add_to_registers").launch(work.stream(), GridSize.strided(pairs, work), GridSize.BLOCK, 0,
                    hashes.values(), hashes.validity(), groupOfPair, blockBuffer, pairs, registers);
            work.kernel(MODULE, "register_sums").launch(work.stream(), GridSize.strided(blocks, work), GridSize.BLOCK, 0, registers,
                    blocks, inverseSums, empties);
            long[] sums = work.downloadLongs(inverseSums, blocks);
            long[] empty = work.downloadLongs(empties, blocks);
            for (int g = 0; g < counts.length; g++) {
                int b = blockOfGroup[g];
                if (b >= 0) {
                    counts[g] = HyperLogLog.denseEstimate(Double.longBitsToDouble(sums[b]), (int) empty[b]);
                }
            }
        }
    }

    /** Each row's 64-bit hash as {@link HyperLogLog#hash} takes the value (a BIGINT column, NULL where the value is); owned by the caller. */
    static DeviceColumn hashes(DeviceColumn values, DeviceWork work) {
        int rows = values.rows();
        DeviceBuffer out = work.allocate(Math.max(1L, rows) * Long.BYTES, "HyperLogLog hashes");
        DeviceBuffer valid = null;
        try {
            valid = values.validity() == null ? null : work.allocate(Math.max(1, rows), "HyperLogLog hashes: validity");
            try (DeviceBuffer codeHashes = codeHashes(values.dictionary(), work)) {
                work.kernel(MODULE, "value_hashes").launch(work.stream(), GridSize.strided(rows, work), GridSize.BLOCK, 0, values.values(),
                        values.validity(), codeHashes, KeyColumn.kindOf(values.type(), true), rows, out, valid);
            }
            return new DeviceColumn(DataType.BIGINT, rows, out, valid, null);
        } catch (RuntimeException e) {
            out.close();
            if (valid != null) {
                valid.close();
            }
            throw e;
        }
    }

    /** The hash of each dictionary entry's text, by code (null for a column that is no string column). */
    private static DeviceBuffer codeHashes(StringDictionary dictionary, DeviceWork work) {
        if (dictionary == null) {
            return null;
        }
        long[] hashes = new long[dictionary.size()];
        for (int code = 0; code < hashes.length; code++) {
            hashes[code] = HyperLogLog.hash(dictionary.get(code));
        }
        return work.upload(hashes, "HyperLogLog hashes of dictionary entries");
    }

    /** The counts as a column of {@code type} (BIGINT or INTEGER, no NULLs: a group without values counts 0). */
    private static DeviceColumn countColumn(long[] counts, DataType type, DeviceWork work) {
        DeviceBuffer values = type.kind() == TypeKind.INTEGER
                ? work.upload(Arrays.stream(counts).mapToInt(Math::toIntExact).toArray(), "APPROX_COUNT_DISTINCT results")
                : work.upload(counts, "APPROX_COUNT_DISTINCT results");
        return new DeviceColumn(type, counts.length, values, null, null);
    }
}
