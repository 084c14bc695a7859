package io.warpdb.ingest;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;

/**
 * One column of a batch being loaded: parses each value, as text (through {@link
 * TextValueParser}) or as a Java value, into WarpDB's physical vector (strings into a
 * batch-local dictionary). The same for every format and for COPY and {@code warpdb load}; a
 * value that does not fit the column throws {@link BadValueException} saying what was expected.
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
        if (type.isWideDecimal()) {
            BigDecimal value;
            try {
                value = new BigDecimal(ascii(bytes, from, to).trim());
            } catch (NumberFormatException e) {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a " + type.sqlName());
            }
            set(value, row);
            return;
        }
        switch (type.kind()) {
            case INTEGER -> ((IntVector) vector).setSafe(row, type.isNarrowInteger()
                    ? TextValueParser.parseNarrowInteger(bytes, from, to, type) : TextValueParser.parseInteger(bytes, from, to));
            case BIGINT -> ((BigIntVector) vector).setSafe(row, TextValueParser.parseBigint(bytes, from, to));
            case DECIMAL -> ((BigIntVector) vector).setSafe(row, TextValueParser.parseDecimal(bytes, from, to, type));
            case DOUBLE -> ((Float8Vector) vector).setSafe(row, real(TextValueParser.parseDouble(ascii(bytes, from, to))));
            case DATE -> ((DateDayVector) vector).setSafe(row, TextValueParser.parseDate(bytes, from, to));
            case TIMESTAMP -> ((BigIntVector) vector).setSafe(row, TextValueParser.parseTimestamp(ascii(bytes, from, to)));
            case INTERVAL -> throw new BadValueException(SqlState.FEATURE_NOT_SUPPORTED, "a column type that loads read (not INTERVAL)");
            case BOOLEAN -> ((BitVector) vector).setSafe(row, TextValueParser.parseBoolean(ascii(bytes, from, to)) ? 1 : 0);
            case VARCHAR, CHAR -> setString(decode(bytes, from, to), row);
        }
    }

    /**
     * Sets row {@code row} from a value as Arrow's vectors return it (Integer, Long, Double,
     * BigDecimal, LocalDate or epoch days, LocalDateTime, Boolean, Text or String); numbers become the column's
     * type when they fit it exactly.
     */
    void set(Object value, int row) {
        if (value == null) {
            setNull(row);
            return;
        }
        switch (type.kind()) {
            case INTEGER -> ((IntVector) vector).setSafe(row, inRange(exact(value).intValueExact()));
            case BIGINT -> ((BigIntVector) vector).setSafe(row, exact(value).longValueExact());
            case DECIMAL -> {
                if (type.isWideDecimal()) {
                    ((DecimalVector) vector).setSafe(row, inPrecision(exact(value)));
                } else {
                    ((BigIntVector) vector).setSafe(row, unscaled(exact(value)));
                }
            }
            case DOUBLE -> ((Float8Vector) vector).setSafe(row, real(number(value).doubleValue()));
            case DATE -> ((DateDayVector) vector).setSafe(row, value instanceof LocalDate d ? Math.toIntExact(d.toEpochDay())
                    : value instanceof java.time.LocalDateTime t ? Math.toIntExact(t.toLocalDate().toEpochDay()) : number(value).intValue());
            case TIMESTAMP -> ((BigIntVector) vector).setSafe(row, timestamp(value));
            case INTERVAL -> throw new BadValueException(SqlState.FEATURE_NOT_SUPPORTED, "a column type that loads read (not INTERVAL)");
            case BOOLEAN -> ((BitVector) vector).setSafe(row, value instanceof Boolean b ? (b ? 1 : 0)
                    : TextValueParser.parseBoolean(value.toString()) ? 1 : 0);
            case VARCHAR, CHAR -> setString(value.toString(), row);
        }
    }

    /** Arrow's timestamps without a zone come as LocalDateTime; a date is its midnight. */
    private static long timestamp(Object value) {
        if (value instanceof java.time.LocalDateTime t) {
            return Timestamps.of(t);
        }
        if (value instanceof LocalDate d) {
            return Timestamps.ofEpochDay(d.toEpochDay());
        }
        return TextValueParser.parseTimestamp(value.toString());
    }

    /** A value of a TINYINT or SMALLINT column within its range (any int for INTEGER). */
    private int inRange(int value) {
        if (type.isNarrowInteger() && Decimals.exceedsRange(value, type)) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, TextValueParser.rangeOf(type));
        }
        return value;
    }

    /** A REAL column's value rounded to float32 (a DOUBLE's unchanged). */
    private double real(double value) {
        double rounded = type.roundToDeclared(value);
        if (Double.isInfinite(rounded) && !Double.isInfinite(value)) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a REAL (at most 3.4028235E38 in magnitude)");
        }
        return rounded;
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
        return inPrecision(value).unscaledValue().longValueExact();
    }

    /** The value at the column's scale (rounded HALF_UP), within its precision. */
    private BigDecimal inPrecision(BigDecimal value) {
        BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
            throw new BadValueException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "a " + type.sqlName() + " value in range");
        }
        return scaled;
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
        return ascii(bytes, from, to);
    }

    /** The bytes as a String without UTF-8 decoding: exact for ASCII, which numbers and booleans are written in. */
    private static String ascii(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
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

    @Override
    public void close() {
        vector.close();
    }
}
