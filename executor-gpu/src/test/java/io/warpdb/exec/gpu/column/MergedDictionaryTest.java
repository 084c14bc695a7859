package io.warpdb.exec.gpu.column;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.batch.StringDictionary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging the dictionaries of a scan's batches (no GPU needed). */
class MergedDictionaryTest {
    private final StringDictionary first = StringDictionary.ofDistinct(List.of("b", "a"));
    private final StringDictionary second = StringDictionary.ofDistinct(List.of("a", "c"));

    @Test
    void renumbersCodesIntoOneDictionary() {
        MergedDictionary merged = MergedDictionary.of(List.of(first, second, first));
        assertTrue(merged.renumbers());
        assertEquals(3, merged.dictionary().size());
        int[] fromFirst = merged.codeMap(first);
        int[] fromSecond = merged.codeMap(second);
        assertEquals("b", merged.dictionary().get(fromFirst[0]));
        assertEquals(fromFirst[1], fromSecond[0], "equal strings get one code");
        assertEquals("c", merged.dictionary().get(fromSecond[1]));
    }

    @Test
    void oneSharedDictionaryIsKept() {
        MergedDictionary merged = MergedDictionary.of(List.of(first, first));
        assertFalse(merged.renumbers());
        assertSame(first, merged.dictionary());
    }

    @Test
    void theSamePartsGiveTheSameMergeAgain() {
        MergedDictionary once = MergedDictionary.of(List.of(first, second));
        MergedDictionary again = MergedDictionary.of(List.of(first, second, second));
        assertSame(once, again, "a second scan of the same segments reuses the merge (and what is cached per dictionary)");
        StringDictionary third = StringDictionary.ofDistinct(List.of("d"));
        MergedDictionary other = MergedDictionary.of(List.of(first, second, third));
        assertNotSame(once, other);
        assertArrayEquals(new int[] {3}, other.codeMap(third));
        assertNotSame(other, MergedDictionary.of(List.of(first)), "fewer parts are another merge");
    }

    @Test
    void largeMergesAreSplitByHashAndStillExact() {
        // Three parts sharing a third of their entries, past the size merged on one thread.
        int n = MergedDictionary.PARALLEL_ENTRIES;
        List<StringDictionary> parts = List.of(strings(0, n), strings(n / 3, n), strings(2 * n / 3, n), first);
        MergedDictionary merged = MergedDictionary.of(parts);
        assertEquals(n / 3 * 2 + n + 2, merged.dictionary().size(), "each distinct string once");
        assertTrue(merged.dictionary().isUnique());
        assertEquals(merged.dictionary().size(), new java.util.HashSet<>(entries(merged.dictionary())).size());
        for (StringDictionary part : parts) {
            int[] codes = merged.codeMap(part);
            for (int i = 0; i < part.size(); i++) {
                assertEquals(part.get(i), merged.dictionary().get(codes[i]));
            }
        }
        List<StringDictionary> sameStrings = List.of(strings(0, n), strings(n / 3, n), strings(2 * n / 3, n), first);
        assertEquals(entries(merged.dictionary()), entries(MergedDictionary.of(sameStrings).dictionary()), "deterministic");
    }

    private static List<String> entries(StringDictionary dictionary) {
        return java.util.stream.IntStream.range(0, dictionary.size()).mapToObj(dictionary::get).toList();
    }

    /** {@code count} distinct strings from number {@code from} on. */
    private static StringDictionary strings(int from, int count) {
        return StringDictionary.ofDistinct(java.util.stream.IntStream.range(from, from + count).mapToObj(i -> "s" + i).toList());
    }
}
