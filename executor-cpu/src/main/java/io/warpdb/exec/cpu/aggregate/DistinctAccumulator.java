package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import io.warpdb.exec.cpu.hash.KeyEncoder;
import io.warpdb.exec.cpu.hash.KeyTable;
import java.util.List;

/**
 * COUNT/SUM/AVG(DISTINCT x), COUNT(DISTINCT a, b, ...): passes on to the wrapped accumulator only
 * the first occurrence of each (group, values) tuple without NULLs, remembered in a hash table over
 * the tuple (the arguments compared as GROUP BY compares keys).
 */
final class DistinctAccumulator implements Accumulator {
    private final Accumulator inner;
    private final List<KeyEncoder> encoders;
    private final KeyTable seen;

    DistinctAccumulator(Accumulator inner, List<DataType> argTypes) {
        this.inner = inner;
        this.encoders = argTypes.stream().map(t -> KeyEncoder.forGrouping(t, new StringDictionary.Builder())).toList();
        this.seen = new KeyTable(1 + argTypes.size());
    }

    @Override
    public DataType resultType() {
        return inner.resultType();
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        add(List.of(values), groupIds, groupCount);
    }

    @Override
    public void add(List<Column> args, int[] groupIds, int groupCount) {
        int rows = groupIds.length;
        long[][] tuples = new long[1 + args.size()][rows];
        for (int i = 0; i < rows; i++) {
            tuples[0][i] = groupIds[i];
        }
        for (int a = 0; a < args.size(); a++) {
            encoders.get(a).encode(args.get(a), tuples[1 + a], null);
        }
        boolean[] isNew = new boolean[rows];
        seen.add(tuples, new boolean[tuples.length][], Column.nullsOfAny(args.toArray(Column[]::new)), new int[rows], isNew);
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
        inner.add(args.stream().map(c -> c.gather(firstRows)).toList(), firstGroups, groupCount);
    }

    @Override
    public Column result(int from, int count) {
        return inner.result(from, count);
    }
}
