package io.warpdb.storage;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.data.ColumnPredicate;
import io.warpdb.core.data.ColumnPredicate.Comparison;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Int128;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.function.IntToLongFunction;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;

/**
 * What a column chunk holds, in brief: its null count and the range of its non-null values,
 * so that scans can skip chunks a predicate proves empty.
 *
 * @param nullCount NULLs in the chunk
 * @param min       smallest non-null value in {@link Literal}'s normalized form (Boolean; Long
 *                  for INTEGER, BIGINT, DATE days, TIMESTAMP microseconds and unscaled DECIMAL; BigInteger for a
 *                  wide DECIMAL's unscaled value; Double; String), or null
 *                  when there is no range: the chunk is all NULL, or a DOUBLE chunk holds NaN
 *                  (which orders differently in different places, so it disables pruning)
 * @param max       largest non-null value, null exactly when {@code min} is
 */
record ZoneMap(long nullCount, Object min, Object max) {

    /**
     * The zone map of the first {@code rows} values. For strings the range is taken over
     * {@code dict}, which should hold just the strings used (unused ones only widen the range).
     */
    static ZoneMap of(FieldVector v, DataType type, StringDictionary dict, int rows) {
        long nulls = v.getNullCount();
        if (nulls == rows) {
            return new ZoneMap(nulls, null, null);
        }
        if (type.isWideDecimal()) {
            return wide(v, rows, nulls);
        }
        return switch (type.kind()) {
            case BOOLEAN -> booleans((BitVector) v, rows, nulls);
            case INTEGER, DATE -> longs(v, rows, nulls, ints(v.getDataBuffer(), rows)::get);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> longs(v, rows, nulls, longs(v.getDataBuffer(), rows)::get);
            case DOUBLE -> doubles((Float8Vector) v, rows, nulls);
            case VARCHAR, CHAR -> strings(dict, nulls);
        };
    }

    /**
     * The data of a 32- or 64-bit column as a little-endian view, read without the per-value null and bounds checks of
     * the vectors' getters (which cost more than the comparisons); NULL slots are skipped by the validity bits.
     */
    private static IntBuffer ints(ArrowBuf data, int rows) {
        return data.nioBuffer(0, rows * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
    }

    private static LongBuffer longs(ArrowBuf data, int rows) {
        return data.nioBuffer(0, rows * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    }

    private static ZoneMap longs(FieldVector v, int rows, long nulls, IntToLongFunction values) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int r = 0; r < rows; r++) {
            if (nulls == 0 || !v.isNull(r)) {
                long x = values.applyAsLong(r);
                min = Math.min(min, x);
                max = Math.max(max, x);
            }
        }
        return new ZoneMap(nulls, min, max);
    }

    /** A wide DECIMAL's range, from the decimal128 buffer's words (low first). */
    private static ZoneMap wide(FieldVector v, int rows, long nulls) {
        ArrowBuf data = v.getDataBuffer();
        long minHigh = Long.MAX_VALUE;
        long minLow = -1;
        long maxHigh = Long.MIN_VALUE;
        long maxLow = 0;
        for (int r = 0; r < rows; r++) {
            if (!v.isNull(r)) {
                long low = data.getLong((long) r * 16);
                long high = data.getLong((long) r * 16 + 8);
                if (Int128.compare(high, low, minHigh, minLow) < 0) {
                    minHigh = high;
                    minLow = low;
                }
                if (Int128.compare(high, low, maxHigh, maxLow) > 0) {
                    maxHigh = high;
                    maxLow = low;
                }
            }
        }
        return new ZoneMap(nulls, Int128.toBigInteger(minHigh, minLow), Int128.toBigInteger(maxHigh, maxLow));
    }

    private static ZoneMap booleans(BitVector v, int rows, long nulls) {
        boolean seenFalse = false;
        boolean seenTrue = false;
        for (int r = 0; r < rows; r++) {
            if (!v.isNull(r)) {
                if (v.get(r) != 0) {
                    seenTrue = true;
                } else {
                    seenFalse = true;
                }
            }
        }
        return new ZoneMap(nulls, !seenFalse, seenTrue);
    }

    private static ZoneMap doubles(Float8Vector v, int rows, long nulls) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int r = 0; r < rows; r++) {
            if (!v.isNull(r)) {
                double x = v.get(r);
                if (Double.isNaN(x)) {
                    return new ZoneMap(nulls, null, null);
                }
                // Plain comparisons, not Double.compare: -0.0 and 0.0 are equal in SQL.
                min = x < min ? x : min;
                max = x > max ? x : max;
            }
        }
        return new ZoneMap(nulls, min, max);
    }

    private static ZoneMap strings(StringDictionary dict, long nulls) {
        Utf8Strings utf8 = dict.utf8();
        if (utf8 != null && utf8.size() > 0) {
            // By the bytes: a String per entry would cost as much as the rest of the segment's encoding.
            int min = 0;
            int max = 0;
            for (int i = 1; i < utf8.size(); i++) {
                min = utf8.compare(i, min) < 0 ? i : min;
                max = utf8.compare(i, max) > 0 ? i : max;
            }
            return new ZoneMap(nulls, dict.get(min), dict.get(max));
        }
        String min = null;
        String max = null;
        for (int i = 0; i < dict.size(); i++) {
            String s = dict.get(i);
            min = min == null || s.compareTo(min) < 0 ? s : min;
            max = max == null || s.compareTo(max) > 0 ? s : max;
        }
        return new ZoneMap(nulls, min, max);
    }

    /** False only when no row of a chunk of {@code rows} rows of this column type can satisfy {@code p}. */
    boolean mayMatch(ColumnPredicate p, DataType type, long rows) {
        if (p.op() == Comparison.IS_NULL) {
            return nullCount > 0;
        }
        if (p.op() == Comparison.IS_NOT_NULL) {
            return nullCount < rows;
        }
        if (nullCount == rows) {
            return false; // a comparison with NULL is never true
        }
        if (min == null || p.value() == null || p.value().isNull()) {
            return true;
        }
        Integer lo = compare(min, type, p.value());
        Integer hi = compare(max, type, p.value());
        if (lo == null || hi == null) {
            return true;
        }
        return switch (p.op()) {
            case EQ -> lo <= 0 && hi >= 0;
            case LT -> lo < 0;
            case LE -> lo <= 0;
            case GT -> hi > 0;
            case GE -> hi >= 0;
            case IS_NULL, IS_NOT_NULL -> throw new AssertionError(p);
        };
    }

    /** Sign of (zone value - literal), or null when the two cannot be compared (other kinds, NaN). */
    private static Integer compare(Object zoneValue, DataType type, Literal literal) {
        TypeKind litKind = literal.type().kind();
        if (type.kind().isString() && litKind.isString()) {
            return Integer.signum(((String) zoneValue).compareTo((String) literal.value()));
        }
        if (type.kind() == TypeKind.BOOLEAN && litKind == TypeKind.BOOLEAN) {
            return Boolean.compare((Boolean) zoneValue, (Boolean) literal.value());
        }
        if (type.kind().isDatetime() && litKind == type.kind()) {
            return Long.compare((Long) zoneValue, (Long) literal.value());
        }
        if (type.kind().isNumeric() && litKind.isNumeric() && !(literal.value() instanceof Double d && Double.isNaN(d))) {
            return compareNumbers(zoneValue, type, literal.value(), literal.type());
        }
        return null;
    }

    /** Exact comparison of two non-NaN numbers of any numeric types and scales. */
    private static int compareNumbers(Object a, DataType aType, Object b, DataType bType) {
        if (isInfinite(a) || isInfinite(b)) {
            // The finite side, even rounded to a double, stays finite, so the order is right.
            return Double.compare(asDouble(a, aType), asDouble(b, bType));
        }
        return exact(a, aType).compareTo(exact(b, bType));
    }

    private static boolean isInfinite(Object value) {
        return value instanceof Double d && Double.isInfinite(d);
    }

    private static double asDouble(Object value, DataType type) {
        return value instanceof Double d ? d : exact(value, type).doubleValue();
    }

    private static BigDecimal exact(Object value, DataType type) {
        if (value instanceof Double d) {
            return new BigDecimal(d);
        }
        if (value instanceof BigInteger unscaled) {
            return new BigDecimal(unscaled, Decimals.scaleOf(type));
        }
        return BigDecimal.valueOf((Long) value, Decimals.scaleOf(type));
    }
}
