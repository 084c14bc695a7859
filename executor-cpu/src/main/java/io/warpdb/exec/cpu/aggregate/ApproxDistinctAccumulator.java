package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.HyperLogLog;
import io.warpdb.exec.cpu.column.Column;

/**
 * APPROX_COUNT_DISTINCT(x): one {@link HyperLogLog} sketch per group over a 64-bit hash of each
 * non-NULL value (strings by their text, since codes of different batches' dictionaries differ;
 * doubles with -0.0 as 0.0). The workers' sketches merge register by register.
 */
final class ApproxDistinctAccumulator implements MergeableAccumulator {
    private final DataType type;
    private final TypeKind argKind;
    private HyperLogLog[] sketches = new HyperLogLog[0];

    ApproxDistinctAccumulator(DataType type, DataType argType) {
        this.type = type;
        this.argKind = argType.kind();
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        sketches = Accumulators.grow(sketches, groupCount);
        for (int row = 0; row < groupIds.length; row++) {
            int g = groupIds[row];
            if (g >= 0 && !values.isNull(row)) {
                sketchOf(g).add(hash(values, row));
            }
        }
    }

    private long hash(Column values, int row) {
        if (argKind.isString()) {
            return HyperLogLog.hash(values.string(row));
        }
        if (values.isDouble()) {
            return HyperLogLog.hash(values.doubles()[row]);
        }
        return HyperLogLog.hash(values.longs()[row]);
    }

    private HyperLogLog sketchOf(int group) {
        if (sketches[group] == null) {
            sketches[group] = new HyperLogLog();
        }
        return sketches[group];
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        sketches = Accumulators.grow(sketches, groupCount);
        HyperLogLog[] partialSketches = ((ApproxDistinctAccumulator) partial).sketches;
        for (int g = 0; g < groupIds.length && g < partialSketches.length; g++) {
            if (groupIds[g] >= 0 && partialSketches[g] != null) {
                sketchOf(groupIds[g]).addAll(partialSketches[g]);
            }
        }
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Column result(int from, int count) {
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            out[i] = g < sketches.length && sketches[g] != null ? sketches[g].estimate() : 0;
        }
        return Column.ofLongs(type, out, null);
    }
}
