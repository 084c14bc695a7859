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

    /** A UTF-8 dictionary is weighed by its bytes, a String one by its Strings: the estimate reads no entry as a String. */
    @Test
    void heapBytesOfBothKinds() {
        Utf8Dictionary d = new Utf8Dictionary(4, 16);
        add(d, "ab");
        add(d, "cde");
        Utf8Strings utf8 = d.build();
        StringDictionary bytes = StringDictionary.ofUtf8(utf8, true);
        assertEquals(2L * Long.BYTES + utf8.bytes().length + 3L * Integer.BYTES, bytes.heapBytes());
        StringDictionary strings = StringDictionary.ofDistinct(List.of("ab", "cde"));
        assertEquals(2L * Long.BYTES + 48 + 2 + 48 + 3, strings.heapBytes());
    }

    @Test
    void aClearedDictionaryStartsOverAsANewOneWould() {
        // Cleared when grown and full of other values, after an append (which refuses lookups), and twice in a row.
        Utf8Dictionary reused = new Utf8Dictionary(2, 4);
        for (int i = 0; i < 3000; i++) {
            add(reused, "old " + i);
        }
        reused.append(new byte[] {'x'}, 0, 1);
        reused.clear();
        reused.clear();
        Utf8Dictionary fresh = new Utf8Dictionary(2, 4);
        for (int i = 0; i < 4000; i++) {
            String v = i % 7 == 0 ? "" : "new " + i % 900;
            assertEquals(add(fresh, v), add(reused, v), v);
        }
        assertTrue(reused.isDistinct());
        assertEquals(fresh.size(), reused.size());
        StringDictionary entries = StringDictionary.ofUtf8(reused.build(), true);
        assertEquals("", entries.get(0));
        assertEquals("new 1", entries.get(1));
        for (int code = 0; code < entries.size(); code++) {
            assertFalse(entries.get(code).startsWith("old"), entries.get(code));
        }
    }

    @Test
    void blocksFindTheCodesThatOneByOneLookupsFind() {
        // Repeats within a block and across blocks, empty strings (one last in the bytes), growth past the expected size.
        Random random = new Random(11);
        Utf8Dictionary one = new Utf8Dictionary(2, 4);
        Utf8Dictionary blocks = new Utf8Dictionary(2, 4);
        StringBuilder text = new StringBuilder();
        List<int[]> slices = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            String v = random.nextInt(5) == 0 ? "" : "v" + random.nextInt(700) + (random.nextBoolean() ? " ü€" : "");
            int start = text.toString().getBytes(StandardCharsets.UTF_8).length;
            text.append(v).append('|');
            slices.add(new int[] {start, start + v.getBytes(StandardCharsets.UTF_8).length});
        }
        byte[] src = text.toString().getBytes(StandardCharsets.UTF_8);
        int[] from = new int[Utf8Dictionary.BLOCK];
        int[] to = new int[Utf8Dictionary.BLOCK];
        int[] codes = new int[Utf8Dictionary.BLOCK];
        for (int at = 0, count; at < slices.size(); at += count) {
            count = Math.min(Utf8Dictionary.BLOCK - at % 3, slices.size() - at); // partial blocks too
            for (int i = 0; i < count; i++) {
                from[i] = slices.get(at + i)[0];
                to[i] = slices.get(at + i)[1];
            }
            blocks.addBlock(src, from, to, count, codes);
            for (int i = 0; i < count; i++) {
                assertEquals(one.add(src, from[i], to[i]), codes[i]);
            }
        }
        assertEquals(one.size(), blocks.size());
        assertThrows(IllegalStateException.class, () -> {
            blocks.append(src, 0, 1);
            blocks.addBlock(src, from, to, 1, codes);
        });
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
