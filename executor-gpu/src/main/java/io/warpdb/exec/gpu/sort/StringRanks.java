package io.warpdb.exec.gpu.sort;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.batch.StringDictionary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The order of a string column's codes: for each code the rank of its value among the
 * dictionary's distinct values (equal values share a rank, so non-unique dictionaries group and
 * sort correctly), and the distinct values in rank order as a dictionary whose code is the rank.
 * Sorting a large dictionary costs far more than the GPU's sort of the codes, so the ranks of a
 * dictionary are kept while it lives (columns cached in device memory keep theirs across queries).
 */
public record StringRanks(int[] rankOfCode, StringDictionary byRank) {
    private static final Cache<StringDictionary, StringRanks> BY_DICTIONARY =
            Caffeine.newBuilder().weakKeys().maximumSize(1024).build();

    /** The ranks of {@code dictionary}'s codes (shared: callers must not change the array). */
    public static StringRanks of(StringDictionary dictionary) {
        return BY_DICTIONARY.get(dictionary, StringRanks::rank);
    }

    /**
     * Sorts the codes by value on every core: a dictionary of a column such as TPC-H's c_comment
     * (15 M entries at SF 100) took 35 s on one core, which a query's first MIN or ORDER BY of it waited for.
     */
    private static StringRanks rank(StringDictionary dictionary) {
        int size = dictionary.size();
        Integer[] byValue = new Integer[size];
        // A UTF-8 dictionary makes (and keeps) each entry's String on first use: all of them on every core before the sort.
        IntStream.range(0, size).parallel().forEach(i -> {
            dictionary.get(i);
            byValue[i] = i;
        });
        Arrays.parallelSort(byValue, Comparator.comparing(dictionary::get));
        int[] rank = new int[size];
        List<String> distinct = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String value = dictionary.get(byValue[i]);
            if (distinct.isEmpty() || !distinct.get(distinct.size() - 1).equals(value)) {
                distinct.add(value);
            }
            rank[byValue[i]] = distinct.size() - 1;
        }
        return new StringRanks(rank, StringDictionary.ofDistinct(distinct));
    }
}
