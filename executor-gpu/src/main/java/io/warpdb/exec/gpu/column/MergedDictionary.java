package io.warpdb.exec.gpu.column;

import io.warpdb.core.batch.StringDictionary;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One dictionary for string codes that come with several dictionaries (batches of a scan, inputs
 * of a union): the GPU compares codes, so a device column needs a single dictionary. When all
 * parts share one dictionary it is kept and nothing is renumbered.
 */
public final class MergedDictionary {
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
