package io.warpdb.exec.cpu.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class GroupKeyStringsTest {
    private static long[] encode(KeyEncoder encoder, StringDictionary dictionary, long[] codes, boolean[] nulls) {
        long[] out = new long[codes.length];
        encoder.encode(Column.ofCodes(DataType.VARCHAR, codes, nulls, dictionary), out, null);
        return out;
    }

    private static String[] values(GroupKeyStrings strings, long[] ids, boolean[] nulls) {
        StringDictionary dictionary = strings.dictionary();
        String[] out = new String[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = nulls != null && nulls[i] ? null : dictionary.get((int) ids[i]);
        }
        return out;
    }

    @Test
    void theFirstDistinctDictionaryIsTheKeysOwn() {
        GroupKeyStrings strings = new GroupKeyStrings();
        StringDictionary names = StringDictionary.ofDistinct(List.of("a", "b", "c"));
        boolean[] nulls = {false, true, false, false};
        long[] ids = encode(KeyEncoder.forGrouping(strings), names, new long[] {2, 0, 0, 1}, nulls);
        assertEquals(2, ids[0]);
        assertEquals(0, ids[2]);
        assertEquals(1, ids[3]);
        assertSame(names, strings.dictionary());
    }

    @Test
    void otherDictionariesShareTheAdoptedIdsOfEqualValues() {
        GroupKeyStrings strings = new GroupKeyStrings();
        KeyEncoder encoder = KeyEncoder.forGrouping(strings);
        StringDictionary first = StringDictionary.ofDistinct(List.of("a", "b", "c"));
        StringDictionary second = StringDictionary.ofDistinct(List.of("c", "d", "a"));
        long[] firstIds = encode(encoder, first, new long[] {1}, null);
        long[] secondIds = encode(encoder, second, new long[] {0, 1, 2, 1}, null);
        assertEquals(1, firstIds[0]);
        assertArrayEquals(new long[] {2, 3, 0, 3}, secondIds);
        assertArrayEquals(new String[] {"c", "d", "a", "d"}, values(strings, secondIds, null));
        assertArrayEquals(new String[] {"b"}, values(strings, firstIds, null));
    }

    /** A first dictionary whose entries repeat is not adopted: equal values get one id. */
    @Test
    void aDictionaryWithRepeatsIsNotAdopted() {
        GroupKeyStrings strings = new GroupKeyStrings();
        StringDictionary repeats = StringDictionary.ofValues(new String[] {"x", "y", "x"});
        long[] ids = encode(KeyEncoder.forGrouping(strings), repeats, new long[] {0, 1, 2}, null);
        assertEquals(ids[0], ids[2]);
        assertArrayEquals(new String[] {"x", "y", "x"}, values(strings, ids, null));
        assertEquals(2, strings.dictionary().size());
    }

    @Test
    void noValuesGiveAnEmptyDictionary() {
        assertEquals(0, new GroupKeyStrings().dictionary().size());
    }

    /** Workers encoding several dictionaries at once agree on every value's id. */
    @Test
    void concurrentWorkersAgreeOnIds() throws InterruptedException {
        GroupKeyStrings strings = new GroupKeyStrings();
        List<StringDictionary> dictionaries = new ArrayList<>();
        for (int d = 0; d < 8; d++) {
            List<String> entries = new ArrayList<>();
            for (int v = 0; v < 2000; v++) {
                entries.add("v" + (v * (d + 1)) % 3001);
            }
            dictionaries.add(StringDictionary.ofDistinct(entries.stream().distinct().toList()));
        }
        int workers = 4;
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentLinkedQueue<String> mismatches = new ConcurrentLinkedQueue<>();
        List<long[][]> results = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            long[][] mine = new long[dictionaries.size()][];
            results.add(mine);
            int worker = w;
            Thread thread = new Thread(() -> {
                KeyEncoder encoder = KeyEncoder.forGrouping(strings);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < dictionaries.size(); i++) {
                    int d = (i + worker) % dictionaries.size();
                    StringDictionary dictionary = dictionaries.get(d);
                    long[] codes = new long[dictionary.size()];
                    for (int c = 0; c < codes.length; c++) {
                        codes[c] = c;
                    }
                    mine[d] = encode(encoder, dictionary, codes, null);
                }
            });
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        StringDictionary values = strings.dictionary();
        for (long[][] mine : results) {
            for (int d = 0; d < dictionaries.size(); d++) {
                for (int c = 0; c < mine[d].length; c++) {
                    if (!values.get((int) mine[d][c]).equals(dictionaries.get(d).get(c))) {
                        mismatches.add(d + "/" + c);
                    }
                }
            }
        }
        assertEquals(List.of(), List.copyOf(mismatches));
        assertEquals(values.size(), new HashSet<>(Arrays.asList(valuesOf(values))).size());
    }

    private static String[] valuesOf(StringDictionary dictionary) {
        String[] out = new String[dictionary.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = dictionary.get(i);
        }
        return out;
    }
}
