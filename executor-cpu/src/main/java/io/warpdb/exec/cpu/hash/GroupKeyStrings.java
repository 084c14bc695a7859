package io.warpdb.exec.cpu.hash;

import io.warpdb.core.batch.StringDictionary;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The ids of one string GROUP BY key, shared by the {@link KeyEncoder}s of all workers of an
 * aggregation. The first dictionary the key's values come in is adopted when its entries are
 * distinct: its codes are the ids, with no lookup and no lock. When all values come in that one
 * dictionary (columns of a join's build side, TPC-H Q10's customer names and comments, which
 * the workers otherwise resolved one value at a time under one lock) the ids stay its codes and
 * it is the key's output dictionary. Values of any other dictionary get ids from a
 * {@link StringDictionary.Builder}, which is first seeded with the adopted entries in code order
 * so that their ids stay their codes; each code of such a dictionary is resolved about once for
 * all workers (the ids are shared per dictionary).
 */
public final class GroupKeyStrings {
    /** Adopted in place of a first dictionary whose entries may repeat: no dictionary is adopted then. */
    private static final StringDictionary NONE = StringDictionary.ofValues(new String[0]);

    private final AtomicReference<StringDictionary> adopted = new AtomicReference<>();
    /** Ids of the values of dictionaries not adopted; guarded by itself. */
    private final StringDictionary.Builder builder = new StringDictionary.Builder();
    /** Whether {@link #builder} holds the adopted entries; guarded by {@link #builder}. */
    private boolean seeded;
    /** Per dictionary not adopted: code -> id, shared by the workers (written without locks, see KeyEncoder). */
    private final Map<StringDictionary, int[]> ids = new ConcurrentHashMap<>();

    /** Whether the codes of {@code dictionary} are the ids: it is the adopted one (adopting it when none was seen before). */
    boolean adopts(StringDictionary dictionary) {
        StringDictionary first = adopted.get();
        if (first == null) {
            adopted.compareAndSet(null, dictionary.isUnique() ? dictionary : NONE);
            first = adopted.get();
        }
        return first == dictionary;
    }

    Map<StringDictionary, int[]> ids() {
        return ids;
    }

    /** The id of a value of a dictionary not adopted. Only called after {@link #adopts} answered for that dictionary. */
    int resolve(String value) {
        synchronized (builder) {
            if (!seeded) {
                seeded = true;
                StringDictionary first = adopted.get();
                for (int code = 0; code < first.size(); code++) {
                    builder.add(first.get(code)); // distinct entries: code i gets id i
                }
            }
            return builder.add(value);
        }
    }

    /** The values of the ids handed out, once the encoders are done. */
    public StringDictionary dictionary() {
        synchronized (builder) {
            StringDictionary first = adopted.get();
            return seeded || first == null || first == NONE ? builder.build() : first;
        }
    }
}
