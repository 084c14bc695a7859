package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/** SUM and AVG of DOUBLE, in double. */
final class DoubleSumAccumulator implements MergeableAccumulator {
    private final boolean average;
    private double[] sums = new double[0];
    private long[] counts = new long[0];

    DoubleSumAccumulator(boolean average) {
        this.average = average;
    }

    @Override
    public DataType resultType() {
        return DataType.DOUBLE;
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        sums = Accumulators.grow(sums, groupCount);
        counts = Accumulators.grow(counts, groupCount);
        double[] v = values.doubles();
        for (int row = 0; row < groupIds.length; row++) {
            if (!values.isNull(row)) {
                sums[groupIds[row]] += v[row];
                counts[groupIds[row]]++;
            }
        }
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        sums = Accumulators.grow(sums, groupCount);
        counts = Accumulators.grow(counts, groupCount);
        DoubleSumAccumulator other = (DoubleSumAccumulator) partial;
        for (int g = 0; g < Math.min(groupIds.length, other.counts.length); g++) {
            if (groupIds[g] >= 0) {
                sums[groupIds[g]] += other.sums[g];
                counts[groupIds[g]] += other.counts[g];
            }
        }
    }

    @Override
    public Column result(int from, int count) {
        sums = Accumulators.grow(sums, from + count);
        counts = Accumulators.grow(counts, from + count);
        boolean[] nulls = new boolean[count];
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            nulls[i] = counts[g] == 0;
            out[i] = nulls[i] ? 0 : average ? sums[g] / counts[g] : sums[g];
        }
        return Column.ofDoubles(DataType.DOUBLE, out, nulls);
    }
}
