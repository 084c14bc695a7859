package io.warpdb.exec.gpu.partition;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.types.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * A partition's string columns recoded to dictionaries of only the values its rows use. The
 * partitions of an out-of-core operator keep their input's dictionaries, and an in-core operator
 * puts a table per dictionary code on the device (a string key's ranks or value ids), sized by
 * the whole input's dictionary: for a high-cardinality column that table alone can exceed the
 * stream's share of the budget that the partition's rows were sized to fit. Recoded, it is
 * bounded by the partition's rows.
 */
public final class UsedDictionaryEntries {
    private UsedDictionaryEntries() {
    }

    /**
     * The rows of {@code table} (which stays the caller's) as a new table the caller owns, with
     * every string column whose dictionaries have more entries than the table has rows recoded to
     * one dictionary of the values it uses; other columns share {@code table}'s buffers.
     */
    public static HostTable of(HostTable table, BufferAllocator allocator) {
        return of(table, allocator, Set.of());
    }

    /**
     * As {@link #of(HostTable, BufferAllocator)}, and the string columns {@code oneDictionary}
     * also recoded when their batches have more than one dictionary, so that all share one.
     */
    public static HostTable of(HostTable table, BufferAllocator allocator, Set<Integer> oneDictionary) {
        Schema schema = table.schema();
        boolean[] recode = new boolean[schema.size()];
        for (int c = 0; c < schema.size(); c++) {
            if (schema.type(c).kind().isString()) {
                Set<StringDictionary> dictionaries = distinctDictionaries(table, c);
                long entries = dictionaries.stream().mapToLong(StringDictionary::size).sum();
                recode[c] = entries > table.rows() || oneDictionary.contains(c) && dictionaries.size() > 1;
            }
        }
        List<List<FieldVector>> vectors = new ArrayList<>();
        List<List<StringDictionary>> dictionaries = new ArrayList<>();
        for (Batch b : table.batches()) {
            vectors.add(new ArrayList<>(schema.size()));
            dictionaries.add(new ArrayList<>(b.dictionaries()));
        }
        try {
            for (int c = 0; c < schema.size(); c++) {
                if (recode[c]) {
                    recodeColumn(table, c, vectors, dictionaries, allocator);
                } else {
                    for (int i = 0; i < table.batches().size(); i++) {
                        vectors.get(i).add(shared(table.batches().get(i), c, allocator));
                    }
                }
            }
            List<Batch> batches = new ArrayList<>();
            for (int i = 0; i < table.batches().size(); i++) {
                batches.add(new Batch(schema, vectors.get(i), dictionaries.get(i), table.batches().get(i).rowCount()));
            }
            return new HostTable(schema, batches);
        } catch (RuntimeException e) {
            // A batch closes the vectors it was given; closing a vector twice is harmless.
            vectors.forEach(list -> list.forEach(FieldVector::close));
            throw e;
        }
    }

    private static Set<StringDictionary> distinctDictionaries(HostTable table, int c) {
        Set<StringDictionary> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Batch b : table.batches()) {
            seen.add(b.dictionary(c));
        }
        return seen;
    }

    /** Column {@code c} of every batch as codes into one new dictionary of the values used, appended to the lists. */
    private static void recodeColumn(HostTable table, int c, List<List<FieldVector>> vectors,
            List<List<StringDictionary>> dictionaries, BufferAllocator allocator) {
        StringDictionary.Builder used = new StringDictionary.Builder((int) Math.min(table.rows(), Integer.MAX_VALUE));
        Map<StringDictionary, int[]> newCodes = new IdentityHashMap<>();
        List<Batch> batches = table.batches();
        for (int i = 0; i < batches.size(); i++) {
            Batch b = batches.get(i);
            StringDictionary dictionary = b.dictionary(c);
            int[] map = newCodes.computeIfAbsent(dictionary, d -> {
                int[] unset = new int[d.size()];
                Arrays.fill(unset, -1);
                return unset;
            });
            IntVector codes = (IntVector) b.vector(c);
            IntVector recoded = new IntVector(codes.getField(), allocator);
            vectors.get(i).add(recoded);
            recoded.allocateNew(Math.max(1, b.rowCount()));
            for (int r = 0; r < b.rowCount(); r++) {
                if (codes.isNull(r)) {
                    recoded.setNull(r);
                } else {
                    int code = codes.get(r);
                    if (map[code] < 0) {
                        map[code] = used.add(dictionary.get(code));
                    }
                    recoded.set(r, map[code]);
                }
            }
            recoded.setValueCount(b.rowCount());
        }
        StringDictionary dictionary = used.build();
        for (List<StringDictionary> d : dictionaries) {
            d.set(c, dictionary);
        }
    }

    /** Column {@code c} of {@code batch} as a new vector sharing its buffers. */
    private static FieldVector shared(Batch batch, int c, BufferAllocator allocator) {
        TransferPair pair = batch.vector(c).getTransferPair(allocator);
        pair.splitAndTransfer(0, batch.rowCount());
        return (FieldVector) pair.getTo();
    }
}
