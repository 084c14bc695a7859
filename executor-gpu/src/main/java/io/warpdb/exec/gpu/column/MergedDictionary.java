package io.warpdb.exec.gpu.column;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.warpdb.core.batch.StringDictionary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

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

    /** Merges of fewer entries stay on the calling thread. */
    static final int PARALLEL_ENTRIES = 1 << 16;
    private static final int PARTITION_BITS = 6;
    private static final int PARTITIONS = 1 << PARTITION_BITS;

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
        Map<StringDictionary, int[]> maps = new IdentityHashMap<>();
        List<StringDictionary> distinct = new ArrayList<>();
        for (StringDictionary part : parts) {
            if (!maps.containsKey(part)) {
                maps.put(part, new int[part.size()]);
                distinct.add(part);
            }
        }
        long entries = distinct.stream().mapToLong(StringDictionary::size).sum();
        StringDictionary merged = entries < PARALLEL_ENTRIES ? mergeInOrder(distinct, maps) : mergePartitioned(distinct, maps);
        return new MergedDictionary(merged, maps);
    }

    /** Codes in order of first appearance, on this thread: for dictionaries too small to be worth splitting. */
    private static StringDictionary mergeInOrder(List<StringDictionary> parts, Map<StringDictionary, int[]> maps) {
        StringDictionary.Builder merged = new StringDictionary.Builder();
        for (StringDictionary part : parts) {
            int[] codes = maps.get(part);
            for (int i = 0; i < codes.length; i++) {
                codes[i] = merged.add(part.get(i));
            }
        }
        return merged.build();
    }

    /**
     * The entries split by hash into {@link #PARTITIONS} partitions, each deduplicated on its own
     * thread (equal strings fall in one partition); a merged code is its partition's offset plus
     * its place in the partition. A scan of a unique string column (comments, names) brings
     * millions of entries in dozens of per-segment dictionaries, which one hash table on one
     * thread would take seconds to merge.
     */
    private static StringDictionary mergePartitioned(List<StringDictionary> parts, Map<StringDictionary, int[]> maps) {
        byte[][] partitionOf = new byte[parts.size()][];
        IntStream.range(0, parts.size()).parallel().forEach(p -> {
            StringDictionary part = parts.get(p);
            byte[] of = new byte[part.size()];
            for (int i = 0; i < of.length; i++) {
                // The high bits of a multiplicative hash: the partition's own hash table spreads on the low ones.
                of[i] = (byte) ((part.get(i).hashCode() * 0x9E3779B9) >>> (Integer.SIZE - PARTITION_BITS));
            }
            partitionOf[p] = of;
        });
        List<List<String>> values = IntStream.range(0, PARTITIONS).parallel().mapToObj(partition -> {
            Map<String, Integer> local = new HashMap<>();
            List<String> distinct = new ArrayList<>();
            for (int p = 0; p < parts.size(); p++) {
                StringDictionary part = parts.get(p);
                byte[] of = partitionOf[p];
                int[] codes = maps.get(part);
                for (int i = 0; i < of.length; i++) {
                    if (of[i] == partition) {
                        Integer code = local.putIfAbsent(part.get(i), distinct.size());
                        if (code == null) {
                            code = distinct.size();
                            distinct.add(part.get(i));
                        }
                        codes[i] = code; // partitions write disjoint entries
                    }
                }
            }
            return distinct;
        }).toList();
        int[] offsets = new int[PARTITIONS];
        String[] merged = new String[values.stream().mapToInt(List::size).sum()];
        for (int partition = 0, at = 0; partition < PARTITIONS; partition++) {
            offsets[partition] = at;
            List<String> distinct = values.get(partition);
            for (int i = 0; i < distinct.size(); i++) {
                merged[at + i] = distinct.get(i);
            }
            at += distinct.size();
        }
        IntStream.range(0, parts.size()).parallel().forEach(p -> {
            byte[] of = partitionOf[p];
            int[] codes = maps.get(parts.get(p));
            for (int i = 0; i < of.length; i++) {
                codes[i] += offsets[of[i]];
            }
        });
        return StringDictionary.ofDistinct(Arrays.asList(merged));
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
