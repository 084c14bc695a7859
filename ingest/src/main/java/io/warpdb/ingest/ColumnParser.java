package io.warpdb.ingest;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * One column of a batch being loaded: parses each value, as text or as a Java value, into
 * WarpDB's physical vector (strings into a batch-local dictionary). The parsers are the same
 * for every format and for COPY and {@code warpdb load}; a value that does not fit the column
 * throws {@link BadValueException} saying what was expected.
 */
final class ColumnParser implements AutoCloseable {
    private final DataType type;
    private final FieldVector vector;
    private final StringDictionary.Builder dictionary;
    private CharsetDecoder utf8;

    ColumnParser(String name, DataType type, int capacity, BufferAllocator allocator) {
        this.type = type;
        this.vector = Vectors.allocate(name, type, capacity, allocator);
        this.dictionary = type.kind().isString() ? new StringDictionary.Builder() : null;
    }

    /** The vector, now {@code rows} long, and the dictionary; the caller owns the vector from here on. */
    FieldVector finish(int rows) {
        vector.setValueCount(rows);
        return vector;
    }

    StringDictionary dictionary() {
        return dictionary == null ? null : dictionary.build();
    }

    void setNull(int row) {
        if (!type.nullable()) {
            throw new BadValueException(SqlState.NOT_NULL_VIOLATION, "a value (the column is NOT NULL)");
        }
        vector.setNull(row);
    }

    /** Parses the UTF-8 text {@code bytes[from..to)} into row {@code row}. */
    void parse(byte[] bytes, int from, int to, int row) {
        switch (type.kind()) {
            case INTEGER -> {
                long v = parseInteger(bytes, from, to, "an INTEGER");
                if (v != (int) v) {
                    throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "an INTEGER (-2147483648..2147483647)");
                }
                ((IntVector) vector).setSafe(row, (int) v);
            }
            case BIGINT -> ((BigIntVector) vector).setSafe(row, parseInteger(bytes, from, to, "a BIGINT"));
            case DECIMAL -> ((BigIntVector) vector).setSafe(row, parseDecimal(bytes, from, to));
            case DOUBLE -> ((Float8Vector) vector).setSafe(row, parseDouble(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1)));
            case DATE -> ((DateDayVector) vector).setSafe(row, parseDate(bytes, from, to));
            case BOOLEAN -> ((BitVector) vector).setSafe(row, parseBoolean(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1)) ? 1 : 0);
            case VARCHAR, CHAR -> setString(decode(bytes, from, to), row);
        }
    }

    /**
     * Sets row {@code row} from a value as Arrow's vectors return it (Integer, Long, Double,
     * BigDecimal, LocalDate or epoch days, Boolean, Text or String); numbers become the column's
     * type when they fit it exactly.
     */
    void set(Object value, int row) {
        if (value == null) {
            setNull(row);
            return;
        }
        switch (type.kind()) {
            case INTEGER -> ((IntVector) vector).setSafe(row, exact(value).intValueExact());
            case BIGINT -> ((BigIntVector) vector).setSafe(row, exact(value).longValueExact());
            case DECIMAL -> ((BigIntVector) vector).setSafe(row, unscaled(exact(value)));
            case DOUBLE -> ((Float8Vector) vector).setSafe(row, number(value).doubleValue());
            case DATE -> ((DateDayVector) vector).setSafe(row, value instanceof LocalDate d ? Math.toIntExact(d.toEpochDay())
                    : value instanceof java.time.LocalDateTime t ? Math.toIntExact(t.toLocalDate().toEpochDay()) : number(value).intValue());
            case BOOLEAN -> ((BitVector) vector).setSafe(row, value instanceof Boolean b ? (b ? 1 : 0) : parseBoolean(value.toString()) ? 1 : 0);
            case VARCHAR, CHAR -> setString(value.toString(), row);
        }
    }

    private static Number number(Object value) {
        if (value instanceof Number n) {
            return n;
        }
        throw new BadValueException(SqlState.DATATYPE_MISMATCH, "a number, found a " + value.getClass().getSimpleName());
    }

    private BigDecimal exact(Object value) {
        Number n = number(value);
        BigDecimal d = n instanceof BigDecimal b ? b : n instanceof Double || n instanceof Float ? BigDecimal.valueOf(n.doubleValue())
                : BigDecimal.valueOf(n.longValue());
        if (type.kind() != TypeKind.DECIMAL && d.stripTrailingZeros().scale() > 0) {
            throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a whole number for " + type.sqlName());
        }
        return d;
    }

    private long unscaled(BigDecimal value) {
        BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a " + type.sqlName() + " value in range");
        }
        return scaled.unscaledValue().longValueExact();
    }

    private void setString(String value, int row) {
        String stored = type.kind() == TypeKind.CHAR ? value.stripTrailing() : value; // CHAR values carry no padding in WarpDB
        if (type.precision() > 0 && stored.length() > type.precision() && stored.codePointCount(0, stored.length()) > type.precision()) {
            throw new BadValueException(SqlState.STRING_DATA_RIGHT_TRUNCATION, "a " + type.sqlName() + " of at most "
                    + type.precision() + " characters");
        }
        ((IntVector) vector).setSafe(row, dictionary.add(stored));
    }

    private String decode(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] < 0) {
                return decodeUtf8(bytes, from, to);
            }
        }
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1); // ASCII: no decoding needed
    }

    /** Strict UTF-8: the JDK's String constructor would replace bad bytes silently. */
    private String decodeUtf8(byte[] bytes, int from, int to) {
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            return utf8.decode(ByteBuffer.wrap(bytes, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            throw new BadValueException(SqlState.CHARACTER_NOT_IN_REPERTOIRE, "valid UTF-8 text");
        }
    }

    static long parseInteger(byte[] b, int from, int to, String expected) {
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        if (i == to) {
            throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected);
        }
        long value = 0;
        for (; i < to; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected);
            }
            // Accumulate negatively so that the most negative value parses too.
            if (value < (Long.MIN_VALUE + d) / 10) {
                throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, expected + " in range");
            }
            value = value * 10 - d;
        }
        if (!negative && value == Long.MIN_VALUE) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, expected + " in range");
        }
        return negative ? value : -value;
    }

    /** The unscaled value; fraction digits beyond the scale round half away from zero. */
    private long parseDecimal(byte[] b, int from, int to) {
        String expected = "a " + type.sqlName();
        int scale = type.scale();
        int i = from;
        boolean negative = i < to && b[i] == '-';
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        long value = 0;
        int integerDigits = 0;
        int fraction = -1; // fraction digits kept; -1 before the point
        boolean roundUp = false;
        boolean anyDigit = false;
        for (; i < to; i++) {
            byte c = b[i];
            if (c == '.' && fraction < 0) {
                fraction = 0;
                continue;
            }
            if (c < '0' || c > '9') {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected);
            }
            anyDigit = true;
            if (fraction < 0) {
                if (value != 0 || c != '0') {
                    integerDigits++;
                }
                value = value * 10 + (c - '0');
            } else if (fraction < scale) {
                value = value * 10 + (c - '0');
                fraction++;
            } else if (fraction == scale) {
                roundUp = c >= '5';
                fraction++;
            }
            if (integerDigits > type.precision() - scale) {
                throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, expected + " (at most "
                        + (type.precision() - scale) + " digits before the point)");
            }
        }
        if (!anyDigit) {
            throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, expected);
        }
        for (int f = Math.max(fraction, 0); f < scale; f++) {
            value *= 10;
        }
        if (roundUp) {
            value++;
        }
        return negative ? -value : value;
    }

    static double parseDouble(String text) {
        try {
            if (!text.isEmpty() && !Character.isWhitespace(text.charAt(0)) && !Character.isWhitespace(text.charAt(text.length() - 1))) {
                return Double.parseDouble(text);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a DOUBLE");
    }

    static int parseDate(byte[] b, int from, int to) {
        if (to - from == 10 && b[from + 4] == '-' && b[from + 7] == '-') {
            try {
                // By hand: LocalDate.parse's formatter costs more than the rest of a row.
                return (int) LocalDate.of(digits(b, from, 4), digits(b, from + 5, 2), digits(b, from + 8, 2)).toEpochDay();
            } catch (DateTimeException e) {
                // reported below
            }
        }
        throw new BadValueException(SqlState.INVALID_DATETIME_FORMAT, "a DATE (yyyy-mm-dd)");
    }

    /** The number written by {@code count} digits at {@code from}; -1 if one is not a digit. */
    private static int digits(byte[] b, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            if (b[i] < '0' || b[i] > '9') {
                return -1;
            }
            value = value * 10 + b[i] - '0';
        }
        return value;
    }

    private static boolean parseBoolean(String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "t", "yes", "y", "1" -> true;
            case "false", "f", "no", "n", "0" -> false;
            default -> throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a BOOLEAN (true or false)");
        };
    }

    @Override
    public void close() {
        vector.close();
    }
}
