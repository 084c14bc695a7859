package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;

/**
 * COUNT/SUM/AVG(DISTINCT x): passes on to the wrapped accumulator only the first occurrence of
 * each (group, value) pair, remembered in a hash table over the pair.
 */
final class DistinctAccumulator implements Accumulator {
    private final Accumulator inner;
    private final KeyEncoder encoder;
    private final KeyTable seen = new KeyTable(2);

    DistinctAccumulator(Accumulator inner, DataType argType) {
        this.inner = inner;
        this.encoder = KeyEncoder.forGrouping(argType, new StringDictionary.Builder());
    }

    @Override
    public DataType resultType() {
        return inner.resultType();
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        int rows = groupIds.length;
        long[] groups = new long[rows];
        for (int i = 0; i < rows; i++) {
            groups[i] = groupIds[i];
        }
        long[] encoded = new long[rows];
        encoder.encode(values, encoded, null);
        boolean[] isNew = new boolean[rows];
        seen.add(new long[][] {groups, encoded}, new boolean[2][], values.nulls(), new int[rows], isNew);
        int firstCount = 0;
        for (boolean first : isNew) {
            firstCount += first ? 1 : 0;
        }
        int[] firstRows = new int[firstCount];
        int[] firstGroups = new int[firstCount];
        for (int i = 0, at = 0; i < rows; i++) {
            if (isNew[i]) {
                firstRows[at] = i;
                firstGroups[at++] = groupIds[i];
            }
        }
        inner.add(values.gather(firstRows), firstGroups, groupCount);
    }

    @Override
    public Column result(int from, int count) {
        return inner.result(from, count);
    }
}
