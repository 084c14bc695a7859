package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * SUM and AVG of a wide DECIMAL (precision over 18): a 128-bit sum per group, every addition
 * checked (22003 when the sum outgrows 128 bits), SUM's result checked against its precision
 * (DECIMAL(38,s): 22003 beyond 38 digits, as DuckDB), AVG the sum divided by the count as one
 * correctly rounded DOUBLE ({@link ExactQuotients}).
 */
final class WideSumAccumulator implements MergeableAccumulator {
    private final boolean average;
    private final int inputScale;
    private final DataType type;
    private long[] high = new long[0];
    private long[] low = new long[0];
    private long[] counts = new long[0];
    private final Int128 sum = new Int128();

    WideSumAccumulator(boolean average, int inputScale, DataType type) {
        this.average = average;
        this.inputScale = inputScale;
        this.type = type;
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        grow(groupCount);
        long[] lows = values.longs();
        long[] highs = values.highs();
        for (int row = 0; row < groupIds.length; row++) {
            int g = groupIds[row];
            if (g >= 0 && !values.isNull(row)) {
                addTo(g, highs[row], lows[row]);
                counts[g]++;
            }
        }
    }

    private void addTo(int g, long h, long l) {
        sum.set(high[g], low[g]).add(h, l);
        high[g] = sum.high;
        low[g] = sum.low;
    }

    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        grow(groupCount);
        WideSumAccumulator other = (WideSumAccumulator) partial;
        for (int g = 0; g < Math.min(groupIds.length, other.counts.length); g++) {
            int to = groupIds[g];
            if (to >= 0) {
                addTo(to, other.high[g], other.low[g]);
                counts[to] += other.counts[g];
            }
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
        return SumResults.column(type, high, low, counts, from, count, inputScale, average);
    }
}
