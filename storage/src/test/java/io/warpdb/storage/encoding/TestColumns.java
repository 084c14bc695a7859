package io.warpdb.storage.encoding;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.params.provider.Arguments;

/** Test data: rows as Java values (null = NULL) turned into vectors and back (also for executor-gpu's decoder tests). */
public final class TestColumns {
    public static final List<DataType> TYPES = List.of(DataType.BOOLEAN, DataType.INTEGER, DataType.BIGINT,
            DataType.decimal(18, 2), DataType.DOUBLE, DataType.DATE, DataType.varchar(0), DataType.chars(12));

    /** Every type with every data pattern: the cases of the encoding tests ({@code @MethodSource} of this name). */
    public static Stream<Arguments> typesAndPatterns() {
        List<Arguments> cases = new ArrayList<>();
        for (DataType type : TYPES) {
            for (Pattern pattern : Pattern.values()) {
                cases.add(Arguments.of(type, pattern));
            }
        }
        return cases.stream();
    }

    private TestColumns() {
    }

    /** A vector and, for strings, its dictionary. */
    public record Column(FieldVector vector, StringDictionary dictionary) implements AutoCloseable {
        @Override
        public void close() {
            vector.close();
        }
    }

    /**
     * A column holding {@code rows}: Boolean, Integer (INTEGER, DATE days), Long (BIGINT, DECIMAL
     * unscaled), Double or String. String rows get a dictionary of their distinct values.
     */
    public static Column column(DataType type, Object[] rows, BufferAllocator allocator) {
        FieldVector vector = Vectors.allocate("c", type, rows.length, allocator);
        StringDictionary.Builder strings = new StringDictionary.Builder();
        for (int i = 0; i < rows.length; i++) {
            Object value = rows[i];
            if (value instanceof String s) {
                value = strings.add(s);
            }
            Vectors.setNormalized(vector, type, i, value);
        }
        vector.setValueCount(rows.length);
        return new Column(vector, type.kind().isString() ? strings.build() : null);
    }

    /** The rows of a vector, in the form {@link #column} takes, doubles as their raw bits. */
    static Object[] rows(FieldVector vector, DataType type, StringDictionary dictionary) {
        Object[] rows = new Object[vector.getValueCount()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = vector.isNull(i) ? null : switch (type.kind()) {
                case BOOLEAN -> ((BitVector) vector).get(i) != 0;
                case INTEGER -> ((IntVector) vector).get(i);
                case DATE -> ((DateDayVector) vector).get(i);
                case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> ((BigIntVector) vector).get(i);
                case DOUBLE -> Double.doubleToRawLongBits(((Float8Vector) vector).get(i));
                case VARCHAR, CHAR -> dictionary.get(((IntVector) vector).get(i));
            };
        }
        return rows;
    }

    /** The expected rows in the form {@link #rows} returns. */
    static Object[] comparable(Object[] rows) {
        return Arrays.stream(rows).map(v -> v instanceof Double d ? (Object) Double.doubleToRawLongBits(d) : v).toArray();
    }

    /** Shapes of data, each filling rows for any type. */
    public enum Pattern {
        ALL_EQUAL, SORTED, REVERSE_SORTED, RANDOM, SMALL_RANGE, LONG_RUNS, EXTREMES, ALL_NULL, MIXED_NULL, CLUSTERED_NULL;

        public Object[] rows(TypeKind kind, int n, long seed) {
            Random random = new Random(seed);
            Object[] rows = new Object[n];
            Object[] extremes = extremes(kind);
            long runValue = 0;
            int runLeft = 0;
            for (int i = 0; i < n; i++) {
                if (runLeft-- == 0) {
                    runValue = random.nextInt(1000) - 500;
                    runLeft = random.nextInt(300);
                }
                rows[i] = switch (this) {
                    case ALL_EQUAL -> scalar(kind, 42);
                    case SORTED -> scalar(kind, 3L * i - n);
                    case REVERSE_SORTED -> scalar(kind, n - 3L * i);
                    case RANDOM -> scalar(kind, random.nextLong());
                    case SMALL_RANGE -> scalar(kind, random.nextInt(16) - 8);
                    case LONG_RUNS -> scalar(kind, runValue);
                    case EXTREMES -> extremes[i % extremes.length];
                    case ALL_NULL -> null;
                    case MIXED_NULL -> random.nextInt(10) < 3 ? null : scalar(kind, random.nextInt(1000));
                    case CLUSTERED_NULL -> i < n / 3 || i >= n - n / 10 ? null : scalar(kind, i);
                };
            }
            return rows;
        }
    }

    /** A value of the type derived from {@code x}, in the same order as x for numbers. */
    static Object scalar(TypeKind kind, long x) {
        return switch (kind) {
            case BOOLEAN -> x > 0;
            case INTEGER, DATE -> (int) x;
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> x;
            case DOUBLE -> x / 4.0;
            case VARCHAR, CHAR -> "v" + x;
        };
    }

    static Object[] extremes(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> new Object[] {true, false};
            case INTEGER, DATE -> new Object[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1};
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> new Object[] {Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1};
            case DOUBLE -> new Object[] {Double.NaN, Double.longBitsToDouble(0x7ff8000000000123L), Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, -0.0, 0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
                Double.MIN_NORMAL};
            case VARCHAR, CHAR -> new Object[] {"", " ", "a", "x".repeat(10_000), "日本語のテキスト", "Grüße, Ωmega", "emoji 😀🚀",
                "nul\u0000inside", "tab\tnew\nline"};
        };
    }

    /** Every value encoding the selector can produce for the type, each to be forced in turn. */
    static List<ValueEncoding> encodings(DataType type) {
        return CascadeSelector.candidates(type);
    }
}
