package io.warpdb.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Strings as UTF-8 bytes: the dictionary bulk loads build, its order, and the StringDictionary over it. */
class Utf8DictionaryTest {
    private static int add(Utf8Dictionary d, String s) {
        byte[] padded = ("<" + s + ">").getBytes(StandardCharsets.UTF_8);
        return d.add(padded, 1, padded.length - 1); // within its bounds, not the whole array
    }

    @Test
    void codesAreFirstAppearanceOrderAndRepeatsFindTheirCode() {
        Utf8Dictionary d = new Utf8Dictionary(2, 4); // grows past what it expected
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            values.add(i % 3 == 0 ? "" : "value " + i + " ü€😀");
        }
        List<Integer> codes = new ArrayList<>();
        for (String v : values) {
            codes.add(add(d, v));
        }
        for (int i = 0; i < values.size(); i++) {
            assertEquals(codes.get(i), add(d, values.get(i)), values.get(i));
        }
        StringDictionary dict = StringDictionary.ofUtf8(d.build(), true);
        assertTrue(dict.isUnique());
        assertEquals(values.stream().distinct().count(), dict.size());
        for (int i = 0; i < values.size(); i++) {
            assertEquals(values.get(i), dict.get(codes.get(i)));
        }
        assertEquals("", dict.get(0));
    }

    @Test
    void appendingMakesEntriesRepeatAndRefusesLookups() {
        Utf8Dictionary d = new Utf8Dictionary(16, 16);
        assertEquals(0, add(d, "a"));
        byte[] a = "a".getBytes(StandardCharsets.UTF_8);
        assertEquals(1, d.append(a, 0, 1));
        assertFalse(d.isDistinct());
        assertThrows(IllegalStateException.class, () -> d.add(a, 0, 1));
        StringDictionary dict = StringDictionary.ofUtf8(d.build(), d.isDistinct());
        assertFalse(dict.isUnique());
        assertEquals("a", dict.get(1));
        assertEquals("StringDictionary[a, a]", dict.toString());
    }

    @Test
    void compareOrdersAsStringCompareTo() {
        // ASCII, Latin-1, U+E000..U+FFFF (where UTF-16 and code point order differ from supplementary characters), emoji
        String[] alphabet = {"a", "b", "z", "é", "ÿ", "\uE000", "\uFFFD", "😀", "𝄞", " "};
        Random random = new Random(7);
        Utf8Strings.Builder b = new Utf8Strings.Builder(4, 4);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(4); n >= 0; n--) {
                s.append(alphabet[random.nextInt(alphabet.length)]);
            }
            strings.add(s.toString());
            byte[] utf8 = s.toString().getBytes(StandardCharsets.UTF_8);
            b.add(utf8, 0, utf8.length);
        }
        Utf8Strings entries = b.build();
        for (int i = 0; i < strings.size(); i++) {
            assertEquals(strings.get(i), entries.string(i));
            for (int j = 0; j < strings.size(); j++) {
                assertEquals(Integer.signum(strings.get(i).compareTo(strings.get(j))), Integer.signum(entries.compare(i, j)),
                        strings.get(i) + " vs " + strings.get(j));
            }
        }
    }
}
