package io.warpdb.core.partition;

import io.warpdb.core.batch.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Splits a batch into parts by the murmur3 hash of key columns, the first step of a
 * repartitioned join (seed 000 section 3): a row goes to part {@code floorMod(hash, parts)}, a
 * row with a NULL key to part 0, and the rows of a part keep their input order. The hash is
 * {@link Murmur3} with seed {@link #SEED} of each key as a 64-bit value: integers of any width,
 * dates, unscaled decimals and timestamps as they are, a DOUBLE's bits (-0.0 as 0.0, every NaN as
 * Java's one), a 128-bit decimal as {@code hashLong(low ^ hashLong(high))}, a string by its UTF-8
 * bytes; several keys combine as {@code hashLong((previous << 32) | next)}. Every implementation
 * gives every row the part {@link CpuHashPartitioner} gives it, so that equal keys meet on one node
 * whichever node partitioned them.
 *
 * <p>Accelerators offer theirs through {@link ServiceLoader}
 * ({@code META-INF/services/io.warpdb.core.partition.HashPartitioner}); the CPU's is built in.
 */
public interface HashPartitioner {
    /** The seed of the hash that places rows on shards; another level (seed 000 section 5) must use another. */
    int SEED = 0;

    /** Where it runs, as a node reports it at start: {@code cpu}, {@code gpu0}, ... */
    String name();

    /** Whether it can run on this machine (its device is present). */
    boolean available();

    /**
     * One batch per part (empty ones included), {@code parts} of them, allocated to
     * {@code allocator}, sharing the input's dictionaries; the caller owns them. The input stays
     * the caller's.
     */
    List<Batch> split(Batch batch, List<Integer> keys, int parts, BufferAllocator allocator);

    /**
     * The input bytes it would rather split at once, {@link #splitChunk}'s batches coalesced up to
     * about this many (a device pays a fixed cost per call: a copy in, kernels, a wait for the
     * parts' sizes); 0 where a batch at a time costs no more.
     */
    default long chunkBytes() {
        return 0;
    }

    /**
     * The rows of all {@code batches} (which have one schema) split as {@link #split} splits each:
     * per part, its rows as batches in input order (none where a part is empty), allocated to
     * {@code allocator}; the caller owns them. The inputs stay the caller's.
     */
    default List<List<Batch>> splitChunk(List<Batch> batches, List<Integer> keys, int parts, BufferAllocator allocator) {
        List<List<Batch>> out = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            out.add(new ArrayList<>());
        }
        try {
            for (Batch batch : batches) {
                List<Batch> split = split(batch, keys, parts, allocator);
                for (int p = 0; p < parts; p++) {
                    Batch part = split.get(p);
                    if (part.rowCount() == 0) {
                        part.close();
                    } else {
                        out.get(p).add(part);
                    }
                }
            }
        } catch (RuntimeException e) {
            out.forEach(part -> part.forEach(Batch::close));
            throw e;
        }
        return out;
    }

    /** The CPU's partitioner. */
    static HashPartitioner cpu() {
        return CpuHashPartitioner.INSTANCE;
    }

    /**
     * The first available accelerator's partitioner on the class path when {@code useDevice},
     * else (or without one) the CPU's.
     */
    static HashPartitioner choose(boolean useDevice) {
        if (!useDevice) {
            return cpu();
        }
        return ServiceLoader.load(HashPartitioner.class, HashPartitioner.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(HashPartitioner::available)
                .findFirst()
                .orElse(cpu());
    }
}
