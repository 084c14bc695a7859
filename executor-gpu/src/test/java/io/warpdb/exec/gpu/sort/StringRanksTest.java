package io.warpdb.exec.gpu.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.warpdb.core.batch.StringDictionary;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Ranks of a dictionary's codes by value, without a device: duplicates share a rank, order is String's. */
class StringRanksTest {
    @Test
    void equalValuesShareARankAndTheDistinctValuesComeInOrder() {
        StringRanks ranks = StringRanks.of(StringDictionary.ofValues(new String[] {"b", "a", "c", "a", ""}));
        assertArrayEquals(new int[] {2, 1, 3, 1, 0}, ranks.rankOfCode());
        assertEquals(List.of("", "a", "b", "c"), values(ranks.byRank()));
    }

    @Test
    void manyValuesRankAsASortedSetOrdersThem() {
        Random random = new Random(7);
        String[] alphabet = {"a", "b", "Z", "\u00e9", "\ud83d\ude00", " ", "ab"};
        String[] values = new String[50_000];
        for (int i = 0; i < values.length; i++) {
            StringBuilder value = new StringBuilder();
            for (int c = random.nextInt(6); c > 0; c--) {
                value.append(alphabet[random.nextInt(alphabet.length)]);
            }
            values[i] = value.toString();
        }
        StringRanks ranks = StringRanks.of(StringDictionary.ofValues(values));
        List<String> sorted = new ArrayList<>(new TreeSet<>(List.of(values)));
        assertEquals(sorted, values(ranks.byRank()));
        for (int code = 0; code < values.length; code++) {
            assertEquals(sorted.indexOf(values[code]), ranks.rankOfCode()[code], values[code]);
        }
    }

    private static List<String> values(StringDictionary dictionary) {
        List<String> out = new ArrayList<>();
        for (int code = 0; code < dictionary.size(); code++) {
            out.add(dictionary.get(code));
        }
        return out;
    }
}
