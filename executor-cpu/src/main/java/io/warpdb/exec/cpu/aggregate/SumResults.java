package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.ExactQuotients;
import io.warpdb.core.value.ExactSums;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * The result column of exact SUMs or AVGs from their 128-bit sums per group (high and low words)
 * and counts, in the result type's form: DOUBLE ({@link ExactQuotients}), a wide DECIMAL
 * ({@link ExactSums#wideValue}) or a 64-bit value ({@link ExactSums#value}); a group of no values is NULL.
 */
final class SumResults {
    private SumResults() {
    }

    static Column column(DataType type, long[] high, long[] low, long[] counts, int from, int count, int inputScale,
            boolean average) {
        boolean[] nulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            nulls[i] = counts[from + i] == 0;
        }
        if (type.kind() == TypeKind.DOUBLE) {
            double[] out = new double[count];
            for (int i = 0; i < count; i++) {
                int g = from + i;
                out[i] = nulls[i] ? 0 : ExactQuotients.toDouble(high[g], low[g], inputScale, average ? counts[g] : 1);
            }
            return Column.ofDoubles(type, out, nulls);
        }
        long[] outLow = new long[count];
        if (type.isWideDecimal()) {
            long[] outHigh = new long[count];
            Int128 v = new Int128();
            for (int i = 0; i < count; i++) {
                int g = from + i;
                if (!nulls[i]) {
                    ExactSums.wideValue(high[g], low[g], inputScale, type, v);
                    outLow[i] = v.low;
                    outHigh[i] = v.high;
                }
            }
            return Column.ofWide(type, outLow, outHigh, nulls);
        }
        for (int i = 0; i < count; i++) {
            int g = from + i;
            outLow[i] = nulls[i] ? 0 : ExactSums.value(high[g], low[g], inputScale, counts[g], average, type);
        }
        return Column.ofLongs(type, outLow, nulls);
    }
}
