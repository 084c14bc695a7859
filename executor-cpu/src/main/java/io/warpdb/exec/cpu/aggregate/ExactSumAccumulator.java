package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.value.Decimals;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * SUM and AVG of INTEGER, BIGINT or DECIMAL, accumulated exactly in 128 bits per group (a high
 * and a low long with carry), so no intermediate sum can overflow. The final value must fit the
 * result type (22003 otherwise): SUM at the result's scale; AVG as DOUBLE (sum / 10^scale / count),
 * DECIMAL (rounded HALF_UP) or an integer type (truncated).
 */
final class ExactSumAccumulator implements MergeableAccumulator {
    private final boolean average;
    private final int inputScale;
    private final DataType type;
    private final int resultScale;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private long[] counts = new long[0];

    ExactSumAccumulator(boolean average, int inputScale, DataType type) {
        this.average = average;
        this.inputScale = inputScale;
        this.type = type;
        this.resultScale = Decimals.scaleOf(type);
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        grow(groupCount);
        long[] v = values.longs();
        for (int row = 0; row < groupIds.length; row++) {
            if (values.isNull(row)) {
                continue;
            }
            int g = groupIds[row];
            long before = low[g];
            low[g] = before + v[row];
            // Add the sign extension of v and the carry out of the low word (an unsigned overflow).
            high[g] += (v[row] >> 63) + (Long.compareUnsigned(low[g], before) < 0 ? 1 : 0);
            counts[g]++;
        }
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        grow(groupCount);
        ExactSumAccumulator other = (ExactSumAccumulator) partial;
        for (int g = 0; g < Math.min(groupIds.length, other.counts.length); g++) {
            int to = groupIds[g];
            if (to < 0) {
                continue;
            }
            long before = low[to];
            low[to] = before + other.low[g];
            high[to] += other.high[g] + (Long.compareUnsigned(low[to], before) < 0 ? 1 : 0);
            counts[to] += other.counts[g];
        }
    }

    private void grow(int groups) {
        high = Accumulators.grow(high, groups);
        low = Accumulators.grow(low, groups);
        counts = Accumulators.grow(counts, groups);
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Column result(int from, int count) {
        grow(from + count);
        boolean[] nulls = new boolean[count];
        if (type.kind() == TypeKind.DOUBLE) {
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                int g = from + i;
                nulls[i] = counts[g] == 0;
                out[i] = nulls[i] ? 0 : sumAsDouble(g) / (average ? counts[g] : 1);
            }
            return Column.ofDoubles(type, out, nulls);
        }
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            int g = from + i;
            nulls[i] = counts[g] == 0;
            out[i] = nulls[i] ? 0 : Decimals.checkFits(exactResult(g), type);
        }
        return Column.ofLongs(type, out, nulls);
    }

    private boolean fitsLong(int g) {
        return high[g] == low[g] >> 63;
    }

    private double sumAsDouble(int g) {
        return fitsLong(g) ? Decimals.toDouble(low[g], inputScale) : bigSum(g).doubleValue();
    }

    private long exactResult(int g) {
        RoundingMode rounding = type.kind() == TypeKind.DECIMAL ? RoundingMode.HALF_UP : RoundingMode.DOWN;
        if (fitsLong(g)) {
            return average ? Decimals.divideScaled(low[g], inputScale, counts[g], 0, resultScale, rounding)
                    : Decimals.rescale(low[g], inputScale, resultScale);
        }
        BigDecimal sum = bigSum(g);
        return Decimals.unscaledExact(average ? sum.divide(BigDecimal.valueOf(counts[g]), resultScale, rounding)
                : sum.setScale(resultScale, RoundingMode.HALF_UP));
    }

    private BigDecimal bigSum(int g) {
        BigInteger unsignedLow = new BigInteger(Long.toUnsignedString(low[g]));
        return new BigDecimal(BigInteger.valueOf(high[g]).shiftLeft(64).add(unsignedLow), inputScale);
    }
}
