package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP in double, with Welford's running mean and sum
 * of squared deviations per group (as DuckDB computes them: no cancellation of a sum of squares),
 * and Chan's formula to merge the states of parallel workers.
 */
final class VarianceAccumulator implements MergeableAccumulator {
    private final AggFunction function;
    private long[] counts = new long[0];
    private double[] means = new double[0];
    /** Per group, the sum of squared deviations from the mean. */
    private double[] m2 = new double[0];

    VarianceAccumulator(AggFunction function) {
        this.function = function;
    }

    @Override
    public DataType resultType() {
        return DataType.DOUBLE;
    }

    private void grow(int groupCount) {
        counts = Accumulators.grow(counts, groupCount);
        means = Accumulators.grow(means, groupCount);
        m2 = Accumulators.grow(m2, groupCount);
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        grow(groupCount);
        double[] v = values.toDoubles();
        for (int row = 0; row < groupIds.length; row++) {
            if (!values.isNull(row)) {
                int g = groupIds[row];
                long n = ++counts[g];
                double delta = v[row] - means[g];
                means[g] += delta / n;
                m2[g] += delta * (v[row] - means[g]);
            }
        }
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        grow(groupCount);
        VarianceAccumulator other = (VarianceAccumulator) partial;
        for (int g = 0; g < Math.min(groupIds.length, other.counts.length); g++) {
            int to = groupIds[g];
            long nb = other.counts[g];
            if (to < 0 || nb == 0) {
                continue;
            }
            long na = counts[to];
            long n = na + nb;
            double delta = other.means[g] - means[to];
            means[to] += delta * nb / n;
            m2[to] += other.m2[g] + delta * delta * ((double) na * nb / n);
            counts[to] = n;
        }
    }

    @Override
    public Column result(int from, int count) {
        grow(from + count);
        boolean sample = function == AggFunction.VAR_SAMP || function == AggFunction.STDDEV_SAMP;
        boolean root = function == AggFunction.STDDEV_POP || function == AggFunction.STDDEV_SAMP;
        boolean[] nulls = new boolean[count];
        double[] out = new double[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            long divisor = sample ? counts[g] - 1 : counts[g];
            nulls[i] = divisor <= 0;
            if (!nulls[i]) {
                double variance = m2[g] / divisor;
                out[i] = root ? Math.sqrt(variance) : variance;
            }
        }
        return Column.ofDoubles(DataType.DOUBLE, out, nulls);
    }
}
