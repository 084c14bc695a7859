package io.warpdb.fuzz;

import java.util.Random;

/**
 * Seed derivation. A run's seed gives every schema its seed; a case seed is its schema's seed
 * with the query number in the low 16 bits, so that one case seed regenerates both the data
 * and the query of that case.
 */
public final class Seeds {
    /** Queries per schema are numbered in the low bits of a case seed. */
    public static final int MAX_QUERIES_PER_SCHEMA = 1 << 16;

    private Seeds() {
    }

    /** The seed of schema number {@code index} of a run seeded with {@code runSeed}. */
    public static long schemaSeed(long runSeed, long index) {
        return mix(runSeed ^ mix(index + 1)) & Long.MAX_VALUE & ~(MAX_QUERIES_PER_SCHEMA - 1L);
    }

    public static long caseSeed(long schemaSeed, int query) {
        return schemaSeed | query;
    }

    public static long schemaSeedOf(long caseSeed) {
        return caseSeed & ~(MAX_QUERIES_PER_SCHEMA - 1L);
    }

    /** A generator for one seed; nearby seeds give unrelated sequences. */
    public static Random random(long seed) {
        return new Random(mix(seed));
    }

    /** SplitMix64's finalizer. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
