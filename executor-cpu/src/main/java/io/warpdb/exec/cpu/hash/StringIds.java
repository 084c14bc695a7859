package io.warpdb.exec.cpu.hash;

import io.warpdb.core.batch.StringDictionary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense ids for string values, shared by all batches an operator sees, so that strings from
 * different (or non-unique) dictionaries compare by value: equal strings get equal ids.
 */
public final class StringIds {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> values = new ArrayList<>();

    /** The id of the value, assigning the next one when it is new. */
    public int add(String value) {
        Integer id = ids.get(value);
        if (id == null) {
            id = values.size();
            ids.put(value, id);
            values.add(value);
        }
        return id;
    }

    /** The id of the value, or -1 when it was never added. */
    public int find(String value) {
        Integer id = ids.get(value);
        return id == null ? -1 : id;
    }

    /** Every value added so far; code i is id i. */
    public StringDictionary dictionary() {
        return StringDictionary.ofDistinct(values);
    }
}
