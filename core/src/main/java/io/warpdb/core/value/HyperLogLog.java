package io.warpdb.core.value;

/**
 * A HyperLogLog sketch (Flajolet, Fusy, Gandouet and Meunier, 2007) of 2^14 registers over 64-bit
 * hashes: a standard error of 1.04 / sqrt(2^14), about 0.8%. Estimates up to 2.5 times the register
 * count use linear counting over the empty registers (the standard small-range correction); a
 * 64-bit hash needs no large-range one. A sketch starts sparse, as HLL++ does: it keeps the
 * distinct hashes themselves (exact but for 64-bit collisions) until they would outweigh the
 * registers, so that the many small groups of a GROUP BY cost a few bytes, not 16 KB each.
 *
 * <p>The estimate depends only on the set of distinct hashes added: their count while there are at
 * most {@link #SPARSE_LIMIT}, else the registers' {@link #denseEstimate}. The CPU executor keeps
 * sketches; the GPU executor computes the same count, registers and sum (aggregate/approx_distinct.cu)
 * and finishes with the same {@link #denseEstimate}, so both give the same answers.
 */
public final class HyperLogLog {
    public static final int PRECISION = 14;
    public static final int REGISTERS = 1 << PRECISION;
    /** Distinct hashes kept before switching to registers: their table then weighs 2 * 8 bytes * this = the registers' 16 KB. */
    public static final int SPARSE_LIMIT = REGISTERS / 16;
    private static final double ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

    /** Open-addressing set of the hashes seen while sparse (0 marks an empty slot; a hash of 0 is kept as 1); null once dense. */
    private long[] hashes = new long[8];
    private int hashCount;
    /** The registers once dense: the highest rank seen per bucket; null while sparse. */
    private byte[] registers;

    public void add(long hash) {
        if (registers != null) {
            addToRegisters(registers, hash);
            return;
        }
        long h = hash == 0 ? 1 : hash;
        int mask = hashes.length - 1;
        int slot = (int) (h ^ h >>> 32) & mask;
        while (hashes[slot] != 0) {
            if (hashes[slot] == h) {
                return;
            }
            slot = (slot + 1) & mask;
        }
        hashes[slot] = h;
        hashCount++;
        if (hashCount > SPARSE_LIMIT) {
            densify();
        } else if (hashCount * 2 > hashes.length) {
            long[] old = hashes;
            hashes = new long[old.length * 2];
            hashCount = 0;
            for (long k : old) {
                if (k != 0) {
                    add(k);
                }
            }
        }
    }

    /** Adds everything {@code other} has seen; reads {@code other} only. */
    public void addAll(HyperLogLog other) {
        if (other.registers == null) {
            for (long h : other.hashes) {
                if (h != 0) {
                    add(h);
                }
            }
            return;
        }
        if (registers == null) {
            densify();
        }
        for (int i = 0; i < REGISTERS; i++) {
            registers[i] = (byte) Math.max(registers[i], other.registers[i]);
        }
    }

    /** The estimated number of distinct hashes added. */
    public long estimate() {
        if (registers == null) {
            return hashCount;
        }
        double inverseSum = 0;
        int empty = 0;
        for (byte r : registers) {
            inverseSum += Math.scalb(1.0, -r);
            empty += r == 0 ? 1 : 0;
        }
        return denseEstimate(inverseSum, empty);
    }

    /**
     * The estimate from dense registers: {@code inverseSum} is the sum of 2^-register over the
     * registers added in their order (a double sum rounds by its order), {@code empty} the number
     * of registers at 0.
     */
    public static long denseEstimate(double inverseSum, int empty) {
        double raw = ALPHA * REGISTERS * (double) REGISTERS / inverseSum;
        if (raw <= 2.5 * REGISTERS && empty > 0) {
            return Math.round(REGISTERS * Math.log((double) REGISTERS / empty));
        }
        return Math.round(raw);
    }

    private void densify() {
        registers = new byte[REGISTERS];
        for (long h : hashes) {
            if (h != 0) {
                addToRegisters(registers, h);
            }
        }
        hashes = null;
        hashCount = 0;
    }

    private static void addToRegisters(byte[] registers, long hash) {
        int bucket = bucket(hash);
        int rank = rank(hash);
        if (rank > registers[bucket]) {
            registers[bucket] = (byte) rank;
        }
    }

    /** The register a hash goes to: its top {@link #PRECISION} bits. */
    public static int bucket(long hash) {
        return (int) (hash >>> (64 - PRECISION));
    }

    /** The rank a hash offers its register: the position of the first 1 bit after the bucket's bits (at most 64 - PRECISION + 1). */
    public static int rank(long hash) {
        return Long.numberOfLeadingZeros(hash << PRECISION | 1L << (PRECISION - 1)) + 1;
    }

    /** A 64-bit hash of a long (Stafford's Mix13 finalizer of SplitMix64: every input bit flips about half the output bits). */
    public static long hash(long v) {
        long z = v + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A 64-bit hash of a string: FNV-1a over its chars, then {@link #hash(long)} to spread the bits. */
    public static long hash(String s) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001B3L;
        }
        return hash(h);
    }

    /** A 64-bit hash of a double: -0.0 as 0.0 and every NaN as one ({@link Double#doubleToLongBits}). */
    public static long hash(double v) {
        return hash(Double.doubleToLongBits(v == 0 ? 0.0 : v));
    }
}
