package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;
import java.util.Arrays;

/** COUNT(*) (every row) and COUNT(x) (non-NULL values). */
final class CountAccumulator implements MergeableAccumulator {
    private final boolean countNulls;
    private final DataType type;
    private long[] counts = new long[0];

    CountAccumulator(boolean countNulls, DataType type) {
        this.countNulls = countNulls;
        this.type = type;
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        counts = Accumulators.grow(counts, groupCount);
        for (int row = 0; row < groupIds.length; row++) {
            if (countNulls || !values.isNull(row)) {
                counts[groupIds[row]]++;
            }
        }
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        counts = Accumulators.grow(counts, groupCount);
        long[] partialCounts = ((CountAccumulator) partial).counts;
        for (int g = 0; g < groupIds.length; g++) {
            if (groupIds[g] >= 0) {
                counts[groupIds[g]] += g < partialCounts.length ? partialCounts[g] : 0;
            }
        }
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Column result(int from, int count) {
        counts = Accumulators.grow(counts, from + count);
        long[] out = Arrays.copyOfRange(counts, from, from + count);
        for (long c : out) {
            Decimals.checkFits(c, type);
        }
        return Column.ofLongs(type, out, null);
    }
}
