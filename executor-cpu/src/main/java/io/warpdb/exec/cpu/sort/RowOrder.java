package io.warpdb.exec.cpu.sort;

import io.warpdb.exec.cpu.TaskRunner;
import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.plan.SortKey;
import io.warpdb.core.value.Int128;
import io.warpdb.exec.cpu.column.ArrowColumns;
import io.warpdb.exec.cpu.column.Column;
import java.util.List;

/**
 * The order of a batch's rows under ORDER BY keys. Each key column is first turned into longs
 * whose natural order is the SQL order (strings: the rank of their value among the dictionary's
 * entries; doubles: their bits arranged to sort as numbers; wide DECIMALs: the rank of their
 * 128-bit value among the column's), so that comparing two rows is a few
 * long comparisons. Ties keep the input order.
 */
public final class RowOrder {
    private RowOrder() {
    }

    /**
     * The first {@code limit} row numbers of {@code batch} in sorted order (all when it has fewer
     * rows), on up to {@code threads} of the {@code workers} (unused for one thread); see
     * {@link IntSorter#sortFirst}.
     */
    public static int[] sortFirst(Batch batch, List<SortKey> keys, int limit, int threads, TaskRunner workers) {
        int[] rows = new int[batch.rowCount()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = i;
        }
        return IntSorter.sortFirst(rows, limit, comparator(batch, keys), threads, workers);
    }

    /** Compares two rows of {@code batch} by {@code keys}: 0 when they tie on every key (NULLs tie with NULLs). */
    public static IntSorter.IntComparator comparator(Batch batch, List<SortKey> keys) {
        int keyCount = keys.size();
        long[][] values = new long[keyCount][];
        boolean[][] nulls = new boolean[keyCount][];
        boolean[] descending = new boolean[keyCount];
        boolean[] nullsFirst = new boolean[keyCount];
        for (int k = 0; k < keyCount; k++) {
            SortKey key = keys.get(k);
            Column column = ArrowColumns.read(batch, key.column());
            values[k] = sortable(column);
            nulls[k] = column.nulls();
            descending[k] = key.descending();
            nullsFirst[k] = key.nullsFirst();
        }
        return (a, b) -> {
            for (int k = 0; k < keyCount; k++) {
                boolean aNull = nulls[k] != null && nulls[k][a];
                boolean bNull = nulls[k] != null && nulls[k][b];
                if (aNull || bNull) {
                    if (aNull != bNull) {
                        return aNull == nullsFirst[k] ? -1 : 1;
                    }
                    continue;
                }
                int c = Long.compare(values[k][a], values[k][b]);
                if (c != 0) {
                    return descending[k] ? -c : c;
                }
            }
            return 0;
        };
    }

    /** Longs ordered as the column's values are (NULL rows hold 0). */
    public static long[] sortable(Column column) {
        int rows = column.size();
        long[] out = new long[rows];
        if (column.isDouble()) {
            double[] d = column.doubles();
            for (int i = 0; i < rows; i++) {
                // Flipping the magnitude bits of negative numbers makes the signed bit patterns sort
                // numerically; -0.0 is 0.0, since the two are equal (they tie, and later keys decide).
                long bits = d[i] == 0 ? 0 : Double.doubleToLongBits(d[i]);
                out[i] = bits ^ (bits >> 63 & Long.MAX_VALUE);
            }
        } else if (column.type().kind().isString()) {
            int[] rank = ranks(column.dictionary());
            long[] codes = column.longs();
            for (int i = 0; i < rows; i++) {
                out[i] = column.isNull(i) ? 0 : rank[(int) codes[i]];
            }
        } else if (column.isWide()) {
            return wideRanks(column);
        } else {
            System.arraycopy(column.longs(), 0, out, 0, rows);
        }
        return out;
    }

    /** Row -> position of its value among the column's values, equal values sharing a rank. */
    private static long[] wideRanks(Column column) {
        long[] lows = column.longs();
        long[] highs = column.highs();
        int[] byValue = new int[lows.length];
        for (int i = 0; i < byValue.length; i++) {
            byValue[i] = i;
        }
        IntSorter.IntComparator order = (a, b) -> Int128.compare(highs[a], lows[a], highs[b], lows[b]);
        IntSorter.sort(byValue, order);
        long[] rank = new long[lows.length];
        for (int i = 1; i < byValue.length; i++) {
            rank[byValue[i]] = rank[byValue[i - 1]] + (order.compare(byValue[i], byValue[i - 1]) == 0 ? 0 : 1);
        }
        return rank;
    }

    /** Code -> position of its value among the entries' values, equal values sharing a rank. */
    private static int[] ranks(StringDictionary dictionary) {
        int size = dictionary.size();
        int[] byValue = new int[size];
        for (int i = 0; i < size; i++) {
            byValue[i] = i;
        }
        IntSorter.sort(byValue, (a, b) -> dictionary.get(a).compareTo(dictionary.get(b)));
        int[] rank = new int[size];
        for (int i = 1; i < size; i++) {
            boolean sameValue = dictionary.get(byValue[i]).equals(dictionary.get(byValue[i - 1]));
            rank[byValue[i]] = sameValue ? rank[byValue[i - 1]] : rank[byValue[i - 1]] + 1;
        }
        return rank;
    }
}
