package io.warpdb.exec.gpu.column;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.batch.StringDictionary;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One dictionary for string codes that come with several dictionaries (batches of a scan, inputs
 * of a union): the GPU compares codes, so a device column needs a single dictionary. When all
 * parts share one dictionary it is kept and nothing is renumbered. A merge is kept while its parts
 * live (and memory allows): scanning the same segments again, e.g. after the device column cache
 * let a column go, yields the same merged dictionary, so the string work cached per dictionary
 * (per-entry LIKE results, sort ranks) still applies.
 */
public final class MergedDictionary {
    private static final Cache<StringDictionary, MergedDictionary> BY_FIRST_PART =
            Caffeine.newBuilder().weakKeys().softValues().maximumSize(1024).build();

    private final StringDictionary dictionary;
    private final Map<StringDictionary, int[]> codeMaps;

    private MergedDictionary(StringDictionary dictionary, Map<StringDictionary, int[]> codeMaps) {
        this.dictionary = dictionary;
        this.codeMaps = codeMaps;
    }

    public static MergedDictionary of(List<StringDictionary> parts) {
        StringDictionary first = parts.isEmpty() ? StringDictionary.EMPTY : parts.get(0);
        if (parts.stream().allMatch(d -> d == first)) {
            return new MergedDictionary(first, null);
        }
        MergedDictionary known = BY_FIRST_PART.getIfPresent(first);
        if (known != null && known.mergesExactly(parts)) {
            return known;
        }
        MergedDictionary made = merge(parts);
        BY_FIRST_PART.put(first, made);
        return made;
    }

    /** Whether this merge was made of exactly these parts (each at least once, no other). */
    private boolean mergesExactly(List<StringDictionary> parts) {
        Map<StringDictionary, Boolean> distinct = new IdentityHashMap<>();
        for (StringDictionary part : parts) {
            if (!codeMaps.containsKey(part)) {
                return false;
            }
            distinct.put(part, true);
        }
        return distinct.size() == codeMaps.size();
    }

    private static MergedDictionary merge(List<StringDictionary> parts) {
        StringDictionary.Builder merged = new StringDictionary.Builder();
        Map<StringDictionary, int[]> maps = new IdentityHashMap<>();
        for (StringDictionary part : parts) {
            maps.computeIfAbsent(part, d -> {
                int[] codes = new int[d.size()];
                for (int i = 0; i < codes.length; i++) {
                    codes[i] = merged.add(d.get(i));
                }
                return codes;
            });
        }
        return new MergedDictionary(merged.build(), maps);
    }

    public StringDictionary dictionary() {
        return dictionary;
    }

    /** Whether codes of the parts must be renumbered. */
    public boolean renumbers() {
        return codeMaps != null;
    }

    /** Code i of {@code part} is code {@code codeMap(part)[i]} of the merged dictionary. */
    public int[] codeMap(StringDictionary part) {
        return codeMaps.get(part);
    }
}
