package io.warpdb.core.batch;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values behind the int32 codes of a string column. Immutable, so batches, tables and
 * operators may share one instance freely. Entries are distinct when built through
 * {@link Builder}; a dictionary derived entry-wise (e.g. UPPER over each entry) may repeat
 * values, which {@link #isUnique()} reports so that operators never compare codes of such a
 * dictionary for equality. A dictionary made by a bulk load holds its entries as UTF-8 bytes
 * ({@link #utf8()}), which storage encodes as they are; a String is made from them only when
 * {@link #get} asks for one.
 */
public final class StringDictionary {
    public static final StringDictionary EMPTY = new StringDictionary(new String[0], true);

    /** The entries; for a UTF-8 dictionary, those made so far (a benign race: equal Strings either way). */
    private final String[] values;
    private final boolean unique;
    private final Utf8Strings utf8;

    private StringDictionary(String[] values, boolean unique) {
        this(values, unique, null);
    }

    private StringDictionary(String[] values, boolean unique, Utf8Strings utf8) {
        this.values = values;
        this.unique = unique;
        this.utf8 = utf8;
    }

    /** A dictionary over UTF-8 entries, which are {@code distinct} or may repeat. */
    public static StringDictionary ofUtf8(Utf8Strings entries, boolean distinct) {
        return new StringDictionary(new String[entries.size()], distinct, entries);
    }

    /** A dictionary over values that may repeat (codes then must not be compared directly). */
    public static StringDictionary ofValues(String[] values) {
        return new StringDictionary(values.clone(), false);
    }

    /** A dictionary over the given distinct values, in order (code i is values[i]). */
    public static StringDictionary ofDistinct(List<String> values) {
        return new StringDictionary(values.toArray(new String[0]), true);
    }

    public int size() {
        return values.length;
    }

    public String get(int code) {
        String value = values[code];
        if (value == null && utf8 != null) {
            value = utf8.string(code);
            values[code] = value;
        }
        return value;
    }

    /**
     * A rough estimate of the heap the entries hold, made without turning a UTF-8 entry into a
     * String (weighing a cache entry must not undo the bulk load's saving): a UTF-8 dictionary's
     * bytes, offsets and slots for Strings, else per String its object, array header and
     * characters (Latin-1).
     */
    public long heapBytes() {
        long slots = (long) Long.BYTES * values.length;
        if (utf8 != null) {
            return slots + utf8.bytes().length + (long) Integer.BYTES * (utf8.size() + 1);
        }
        long bytes = slots;
        for (String value : values) {
            bytes += 48 + value.length();
        }
        return bytes;
    }

    /** The entries as UTF-8 bytes, or null when the dictionary holds Strings. */
    public Utf8Strings utf8() {
        return utf8;
    }

    /** True when no two codes map to equal strings. */
    public boolean isUnique() {
        return unique;
    }

    @Override
    public String toString() {
        String[] shown = new String[Math.min(8, size())];
        Arrays.setAll(shown, this::get);
        return "StringDictionary" + Arrays.toString(shown);
    }

    /** Collects distinct strings and hands out their codes. */
    public static final class Builder {
        private final Map<String, Integer> codes;
        private String[] values;
        private int size;

        public Builder() {
            this(16);
        }

        /** A builder sized for about {@code expectedValues} distinct values, so that it never rehashes on the way. */
        public Builder(int expectedValues) {
            int expected = Math.max(16, expectedValues);
            codes = new HashMap<>((int) (expected / 0.75f) + 1);
            values = new String[expected];
        }

        /** The code of the value, adding it when new (one hash lookup either way: loads add millions of values). */
        public int add(String value) {
            Integer code = codes.putIfAbsent(value, size);
            if (code != null) {
                return code;
            }
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size] = value;
            return size++;
        }

        /** The code of the value, or -1 when it was never added. */
        public int find(String value) {
            Integer code = codes.get(value);
            return code == null ? -1 : code;
        }

        public int size() {
            return size;
        }

        public StringDictionary build() {
            return new StringDictionary(Arrays.copyOf(values, size), true);
        }
    }
}
