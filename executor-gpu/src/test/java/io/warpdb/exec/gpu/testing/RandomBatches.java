package io.warpdb.exec.gpu.testing;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.Schema;
import io.warpdb.core.types.TypeKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Seeded random Arrow batches for differential tests. Values are drawn per column either fresh
 * for every row or from a pool of {@code distinct} values (duplicate-heavy keys), uniformly or
 * Zipf-skewed; {@code extremes} mixes in range limits (Long.MIN/MAX, Integer.MIN/MAX, largest
 * decimals, ±0.0, ±Infinity, NaN). Rows are split into a few batches of random sizes (empty
 * ones included); string columns get one dictionary for all batches or, with
 * {@code varyDictionaries}, a shuffled one per batch with unused entries. Doubles that are not
 * extremes are multiples of 1/4 below 2^20, so sums are exact in any order.
 */
public final class RandomBatches {
    /** Row counts around the warp, block and tile edges, and one of many blocks. */
    public static final List<Integer> SIZES = List.of(0, 1, 31, 32, 33, 2047, 2048, 2049, 100_003);

    /**
     * How values are drawn. {@code distinct} 0: unbounded. {@code poolSeed} 0: pools of distinct
     * values come from the generator's own stream; otherwise from this seed, so that generators
     * with the same pool seed draw from the same values (join keys that match across two sources).
     */
    public record Options(double nullFraction, int distinct, boolean zipf, boolean extremes, boolean varyDictionaries,
            long poolSeed) {
        public static Options plain() {
            return new Options(0, 0, false, false, false, 0);
        }

        public Options withSharedPools(long seed) {
            return new Options(nullFraction, distinct, zipf, extremes, varyDictionaries, seed);
        }

        public Options withNulls(double fraction) {
            return new Options(fraction, distinct, zipf, extremes, varyDictionaries, poolSeed);
        }

        public Options withDistinct(int values) {
            return new Options(nullFraction, values, zipf, extremes, varyDictionaries, poolSeed);
        }

        public Options withZipf() {
            return new Options(nullFraction, distinct, true, extremes, varyDictionaries, poolSeed);
        }

        public Options withExtremes() {
            return new Options(nullFraction, distinct, zipf, true, varyDictionaries, poolSeed);
        }

        public Options withVaryingDictionaries() {
            return new Options(nullFraction, distinct, zipf, extremes, true, poolSeed);
        }
    }

    private final long seed;
    private final Random random;

    public RandomBatches(long seed) {
        this.seed = seed;
        this.random = new Random(seed);
    }

    public long seed() {
        return seed;
    }

    /** {@code rows} random rows of {@code schema}, split into one to four batches. */
    public List<Batch> generate(Schema schema, int rows, Options options, BufferAllocator allocator) {
        List<Object[]> columns = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            columns.add(column(c, schema.type(c), rows, options));
        }
        List<Integer> cuts = new ArrayList<>(List.of(0, rows));
        int extraCuts = random.nextInt(4);
        for (int i = 0; i < extraCuts; i++) {
            cuts.add(random.nextInt(rows + 1));
        }
        Collections.sort(cuts);
        List<StringDictionary> shared = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            shared.add(schema.type(c).kind().isString() ? dictionary(columns.get(c), 0, rows) : null);
        }
        List<Batch> batches = new ArrayList<>();
        try {
            for (int i = 0; i + 1 < cuts.size(); i++) {
                batches.add(batch(schema, columns, cuts.get(i), cuts.get(i + 1), shared, options, allocator));
            }
        } catch (RuntimeException e) {
            batches.forEach(Batch::close);
            throw e;
        }
        return batches;
    }

    private Batch batch(Schema schema, List<Object[]> columns, int from, int to, List<StringDictionary> shared,
            Options options, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        List<StringDictionary> dictionaries = new ArrayList<>();
        try {
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                Object[] values = columns.get(c);
                FieldVector v = Vectors.allocate(schema.field(c).name(), type, to - from, allocator);
                vectors.add(v);
                StringDictionary dictionary = null;
                Map<String, Integer> codes = null;
                if (type.kind().isString()) {
                    dictionary = options.varyDictionaries() && random.nextBoolean() ? dictionary(values, from, to) : shared.get(c);
                    codes = new LinkedHashMap<>();
                    for (int code = dictionary.size() - 1; code >= 0; code--) {
                        codes.put(dictionary.get(code), code);
                    }
                }
                for (int r = from; r < to; r++) {
                    Object value = codes != null && values[r] != null ? codes.get((String) values[r]) : values[r];
                    Vectors.setNormalized(v, type, r - from, value);
                }
                v.setValueCount(to - from);
                dictionaries.add(dictionary);
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new Batch(schema, vectors, dictionaries, to - from);
    }

    /** A dictionary holding the strings of rows [from, to) in shuffled order, plus unused entries. */
    private StringDictionary dictionary(Object[] values, int from, int to) {
        List<String> entries = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int r = from; r < to; r++) {
            if (values[r] != null && seen.add((String) values[r])) {
                entries.add((String) values[r]);
            }
        }
        for (int i = 0; i < 3; i++) {
            String unused = "unused-" + random.nextInt(1000);
            if (seen.add(unused)) {
                entries.add(unused);
            }
        }
        Collections.shuffle(entries, random);
        return StringDictionary.ofDistinct(entries);
    }

    /** Normalized values (see {@link Vectors#setNormalized}; strings as String) of one column. */
    private Object[] column(int position, DataType type, int rows, Options options) {
        Object[] pool = null;
        if (options.distinct() > 0) {
            // A shared pool depends only on the pool seed, the column's position and its type.
            Random poolSource = options.poolSeed() == 0 ? random
                    : new Random(options.poolSeed() * 1_000_003L + position * 31L + type.kind().ordinal());
            pool = new Object[options.distinct()];
            for (int i = 0; i < pool.length; i++) {
                pool[i] = value(poolSource, type, options);
            }
        }
        Object[] out = new Object[rows];
        for (int r = 0; r < rows; r++) {
            if (options.nullFraction() > 0 && random.nextDouble() < options.nullFraction()) {
                continue;
            }
            out[r] = pool == null ? value(random, type, options) : pool[options.zipf() ? zipf(pool.length) : random.nextInt(pool.length)];
        }
        return out;
    }

    /** An index in [0, n) with P(i) roughly proportional to 1/(i+1). */
    private int zipf(int n) {
        double harmonic = Math.log(n) + 0.5772;
        double u = random.nextDouble() * harmonic;
        int i = (int) Math.min(n - 1, Math.max(0, Math.exp(u - 0.5772) - 1));
        return i;
    }

    private static Object value(Random source, DataType type, Options options) {
        boolean extreme = options.extremes() && source.nextInt(8) == 0;
        return switch (type.kind()) {
            case BOOLEAN -> source.nextBoolean();
            case INTEGER -> type.isNarrowInteger() ? narrowInteger(source, type.precision(), extreme)
                    : (long) (extreme ? pick(source, Integer.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE + 1, -1, 0)
                    : source.nextInt(2_000_001) - 1_000_000);
            case BIGINT, TIMESTAMP, INTERVAL -> extreme ? pick(source, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 0L)
                    : source.nextLong() % 1_000_000_000_000L;
            case DECIMAL -> decimal(source, type, extreme);
            // REAL values are doubles a float holds (multiples of 1/4 below 2^20 are).
            case DOUBLE -> extreme ? pick(source, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN)
                    : (source.nextInt(1 << 22) - (1 << 21)) / 4.0;
            case DATE -> (long) (source.nextInt(200_000) - 100_000);
            case VARCHAR, CHAR -> string(source, extreme);
        };
    }

    /** A SMALLINT or TINYINT value of {@code bits} bits: within its range, its limits among the extremes. */
    private static long narrowInteger(Random source, int bits, boolean extreme) {
        long max = (1L << (bits - 1)) - 1;
        return extreme ? pick(source, -max - 1, max, -max, -1L, 0L) : source.nextInt((int) (2 * max + 2)) - max - 1;
    }

    private static Object decimal(Random source, DataType type, boolean extreme) {
        if (type.isWideDecimal()) {
            return wideDecimal(source, type, extreme);
        }
        long limit = 1;
        for (int i = 0; i < type.precision(); i++) {
            limit *= 10;
        }
        long largest = limit - 1;
        if (extreme) {
            return pick(source, largest, -largest, 0L, 1L, -1L);
        }
        long bound = Math.min(largest, 1_000_000_000_000L);
        return source.nextLong() % (bound + 1);
    }

    /**
     * A wide DECIMAL's unscaled value (BigInteger): of 1 to all its digits, half the time at most
     * half of them (so that sums and products of two often fit); its limits among the extremes.
     */
    private static Object wideDecimal(Random source, DataType type, boolean extreme) {
        BigInteger largest = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        if (extreme) {
            return pick(source, largest, largest.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate());
        }
        int digits = 1 + source.nextInt(source.nextBoolean() ? type.precision() : (type.precision() + 1) / 2);
        BigInteger magnitude = new BigInteger(130, source).mod(BigInteger.TEN.pow(digits));
        return source.nextBoolean() ? magnitude.negate() : magnitude;
    }

    private static String string(Random source, boolean extreme) {
        if (extreme) {
            return (String) pick(source, "", "A", "a", "\u00e9t\u00e9", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
        }
        int length = source.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + source.nextInt(source.nextBoolean() ? 3 : 26)));
        }
        return sb.toString();
    }

    @SafeVarargs
    private static <T> T pick(Random source, T... choices) {
        return choices[source.nextInt(choices.length)];
    }

    /** Types tests cover: every kind, decimals narrow and at the 18-digit limit. */
    public static List<DataType> allTypes() {
        return List.of(DataType.INTEGER, DataType.BIGINT, DataType.DOUBLE, DataType.decimal(12, 2),
                DataType.decimal(18, 4), DataType.DATE, DataType.BOOLEAN, DataType.VARCHAR);
    }

    /** Whether SUM/AVG apply to the type. */
    public static boolean summable(DataType type) {
        return type.kind().isNumeric() && type.kind() != TypeKind.BOOLEAN;
    }
}
