package io.warpdb.exec.cpu.aggregate;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.AggFunction;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.Column;

/**
 * MIN, MAX and ANY_VALUE of any type (ANY_VALUE keeps each group's first non-NULL value and
 * compares nothing): numbers and dates by value (one column has one scale, so unscaled
 * longs compare correctly; a wide DECIMAL by its 128-bit value), BOOLEAN with FALSE < TRUE, strings by value (kept as Strings, since
 * codes of different batches' dictionaries do not compare). While every batch's strings come in
 * one dictionary (a join build's columns: the columns a GROUP BY on a key carries), a row whose
 * code is its group's best's is skipped unread, and the results are codes of that dictionary,
 * not a dictionary built anew.
 */
final class MinMaxAccumulator implements MergeableAccumulator {
    private final AggFunction function;
    private final DataType type;
    private final boolean isString;
    private final boolean isDouble;
    private boolean[] seen = new boolean[0];
    private long[] bestLongs = new long[0];
    /** A wide DECIMAL's high words ({@link #bestLongs} the low ones); null for other types. */
    private long[] bestHighs;
    private double[] bestDoubles = new double[0];
    private String[] bestStrings = new String[0];
    /** While {@link #dictionary} is the only dictionary seen, each group's best string as its code there ({@link #bestStrings} unused). */
    private long[] bestCodes = new long[0];
    /** The dictionary of every string batch so far; null before the first, or once batches came in different ones. */
    private StringDictionary dictionary;
    private boolean oneDictionary = true;

    /** {@code function}: MIN, MAX or ANY_VALUE. */
    MinMaxAccumulator(AggFunction function, DataType type) {
        if (function != AggFunction.MIN && function != AggFunction.MAX && function != AggFunction.ANY_VALUE) {
            throw new IllegalArgumentException(function + " picks no value");
        }
        this.function = function;
        this.type = type;
        this.isString = type.kind().isString();
        this.isDouble = type.kind() == TypeKind.DOUBLE;
        this.bestHighs = type.isWideDecimal() ? new long[0] : null;
    }

    @Override
    public DataType resultType() {
        return type;
    }

    /** Whether a value comparing with the current best as {@code sign} replaces it. */
    private boolean replaces(int sign) {
        return function == AggFunction.MAX ? sign > 0 : sign < 0;
    }

    /** Whether a group's value, once seen, is compared with the later ones (not for ANY_VALUE). */
    private boolean compares() {
        return function != AggFunction.ANY_VALUE;
    }

    @Override
    public void add(Column values, int[] groupIds, int groupCount) {
        grow(groupCount);
        boolean sameDictionary = isString && sameDictionary(values.dictionary());
        for (int row = 0; row < groupIds.length; row++) {
            int g = groupIds[row];
            if (g < 0 || values.isNull(row) || seen[g] && !compares()) {
                continue;
            }
            if (isString) {
                addString(values, row, g, sameDictionary);
            } else if (isDouble) {
                double v = values.doubles()[row];
                if (!seen[g] || replaces(Double.compare(v, bestDoubles[g]))) {
                    bestDoubles[g] = v;
                }
            } else if (bestHighs != null) {
                long lo = values.longs()[row];
                long hi = values.highs()[row];
                if (!seen[g] || replaces(Int128.compare(hi, lo, bestHighs[g], bestLongs[g]))) {
                    bestLongs[g] = lo;
                    bestHighs[g] = hi;
                }
            } else {
                long v = values.longs()[row];
                if (!seen[g] || replaces(Long.compare(v, bestLongs[g]))) {
                    bestLongs[g] = v;
                }
            }
            seen[g] = true;
        }
    }

    /**
     * One row's string into group g: while all came in one dictionary, by code, read and compared
     * only where it differs from the best's (the rows of one group of a key-determined column
     * never do); else by value.
     */
    private void addString(Column values, int row, int g, boolean sameDictionary) {
        if (sameDictionary) {
            long code = values.longs()[row];
            if (!seen[g] || code != bestCodes[g] && replaces(values.string(row).compareTo(dictionary.get((int) bestCodes[g])))) {
                bestCodes[g] = code;
            }
            return;
        }
        String v = values.string(row);
        if (!seen[g] || replaces(v.compareTo(bestStrings[g]))) {
            bestStrings[g] = v;
        }
    }

    /**
     * Whether {@code next}, a batch's dictionary, is the one all earlier batches came in; notes it
     * when it is the first. The first other one turns the best codes into strings.
     */
    private boolean sameDictionary(StringDictionary next) {
        if (oneDictionary && dictionary == null) {
            dictionary = next;
        } else if (oneDictionary && dictionary != next) {
            for (int g = 0; g < seen.length; g++) {
                if (seen[g]) {
                    bestStrings[g] = dictionary.get((int) bestCodes[g]);
                }
            }
            oneDictionary = false;
            dictionary = null;
        }
        return oneDictionary;
    }

    /** A partial's results are its best values (NULL where it saw none): adding them is merging. */
    @Override
    public void merge(MergeableAccumulator partial, int[] groupIds, int groupCount) {
        add(partial.result(0, groupIds.length), groupIds, groupCount);
    }

    private void grow(int groups) {
        seen = Accumulators.grow(seen, groups);
        if (isString) {
            bestStrings = Accumulators.grow(bestStrings, groups);
            bestCodes = Accumulators.grow(bestCodes, groups);
        } else if (isDouble) {
            bestDoubles = Accumulators.grow(bestDoubles, groups);
        } else {
            bestLongs = Accumulators.grow(bestLongs, groups);
            if (bestHighs != null) {
                bestHighs = Accumulators.grow(bestHighs, groups);
            }
        }
    }

    @Override
    public Column result(int from, int count) {
        grow(from + count);
        boolean[] nulls = new boolean[count];
        for (int i = 0; i < count; i++) {
            nulls[i] = !seen[from + i];
        }
        if (isDouble) {
            double[] out = new double[count];
            System.arraycopy(bestDoubles, from, out, 0, count);
            return Column.ofDoubles(type, out, nulls);
        }
        long[] out = new long[count];
        if (!isString) {
            System.arraycopy(bestLongs, from, out, 0, count);
            if (bestHighs != null) {
                long[] highs = new long[count];
                System.arraycopy(bestHighs, from, highs, 0, count);
                return Column.ofWide(type, out, highs, nulls);
            }
            return Column.ofLongs(type, out, nulls);
        }
        if (oneDictionary && dictionary != null) {
            System.arraycopy(bestCodes, from, out, 0, count);
            return Column.ofCodes(type, out, nulls, dictionary);
        }
        StringDictionary.Builder dictionary = new StringDictionary.Builder();
        for (int i = 0; i < count; i++) {
            if (!nulls[i]) {
                out[i] = dictionary.add(bestStrings[from + i]);
            }
        }
        return Column.ofCodes(type, out, nulls, dictionary.build());
    }
}
