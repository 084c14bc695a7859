package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Decimals;
import io.warpdb.exec.cpu.column.Column;
import java.util.Arrays;
import java.util.List;

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
        add(countNulls ? null : values.nulls(), groupIds, groupCount);
    }

    /** COUNT(a, b, ...): the rows where no argument is NULL. */
    @Override
    public void add(List<Column> args, int[] groupIds, int groupCount) {
        add(countNulls ? null : Column.nullsOfAny(args.toArray(Column[]::new)), groupIds, groupCount);
    }

    /** Counts the rows not flagged in {@code skip} (null: none is). */
    private void add(boolean[] skip, int[] groupIds, int groupCount) {
        counts = Accumulators.grow(counts, groupCount);
        for (int row = 0; row < groupIds.length; row++) {
            if (skip == null || !skip[row]) {
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
