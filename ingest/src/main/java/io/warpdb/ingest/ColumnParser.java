package io.warpdb.ingest;

import io.warpdb.core.batch.StringDictionary;
import io.warpdb.core.batch.Utf8Dictionary;
import io.warpdb.core.batch.Utf8Strings;
import io.warpdb.core.batch.Vectors;
import io.warpdb.core.error.SqlState;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * One column of a batch being loaded: parses each value, as text (through {@link
 * TextValueParser}) or as a Java value, into WarpDB's physical vector. Strings go as UTF-8
 * bytes into the batch's dictionary, no String per value: looked up by their bytes while they
 * repeat, so that the segment they go into sees each once; appended without a lookup once
 * nearly all are distinct (comments, names), which the segment's dictionary finds once anyway.
 * The same for every format and for COPY and {@code warpdb load}; a value that does not
 * fit the column throws {@link BadValueException} saying what was expected.
 */
final class ColumnParser {
    /** Values looked up before deciding whether a column's strings repeat enough to keep looking them up. */
    private static final int SAMPLE_VALUES = 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final DataType type;
    private final BufferAllocator allocator;
    /**
     * The values, in a Java array of the vector's width (INTEGER, DATE, BOOLEAN as 0/1, string
     * codes; BIGINT, DECIMAL, TIMESTAMP; DOUBLE), copied into the vector in one go at the end:
     * no bounds and reference-count checks of Arrow's per value. A wide DECIMAL keeps its low
     * words in {@code longs} and its high words in {@code highs}.
     */
    private int[] ints;
    private long[] longs;
    private long[] highs;
    private double[] doubles;
    private boolean[] nulls;
    private boolean anyNull;
    private int capacity;
    /** VARCHAR and CHAR: the values of the non-null rows; handed to each batch built, so made afresh for the next. */
    private Utf8Dictionary strings;
    private int stringsAdded;
    /**
     * The bytes of the strings of the last batch built (-1 before the first): the room the next batch's start with, so
     * that they rarely grow, and a column of few distinct values (flags, modes) does not get a chunk's worth each batch.
     */
    private int stringBytes = -1;
    private CharsetDecoder utf8;

    ColumnParser(String name, DataType type, int capacity, BufferAllocator allocator) {
        this.name = name;
        this.type = type;
        this.allocator = allocator;
        this.capacity = Math.max(1, capacity);
        switch (type.kind()) {
            case BIGINT, DECIMAL, TIMESTAMP -> longs = new long[this.capacity];
            case DOUBLE -> doubles = new double[this.capacity];
            default -> ints = new int[this.capacity];
        }
        if (type.isWideDecimal()) {
            highs = new long[this.capacity];
        }
        this.nulls = new boolean[this.capacity];
        this.strings = newStrings();
    }

    private Utf8Dictionary newStrings() {
        return type.kind().isString()
                ? new Utf8Dictionary(Math.min(capacity, SAMPLE_VALUES), stringBytes < 0 ? capacity * 8 : 64 + stringBytes + stringBytes / 4)
                : null;
    }

    /**
     * Starts the next batch from row 0, keeping the value arrays: a load parses hundreds of
     * chunks, and fresh arrays for each were a sixth of its allocation. Every row is set again
     * before it is read, so the old values need no clearing.
     */
    void reset() {
        anyNull = false;
        stringsAdded = 0;
        strings = newStrings();
    }

    /** The first {@code rows} values as a new vector, which the caller owns. */
    FieldVector finish(int rows) {
        FieldVector vector = Vectors.allocate(name, type, rows, allocator);
        try {
            ArrowBuf data = vector.getDataBuffer();
            if (type.kind() == TypeKind.BOOLEAN) {
                for (int r = 0; r < rows; r++) {
                    if (ints[r] != 0) {
                        BitVectorHelper.setBit(data, r);
                    }
                }
            } else if (ints != null) {
                data.nioBuffer(0, rows * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(ints, 0, rows);
            } else if (highs != null) {
                // decimal128: each value's low word, then its high word, little-endian.
                java.nio.LongBuffer words = data.nioBuffer(0, rows * 2 * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
                for (int r = 0; r < rows; r++) {
                    words.put(longs[r]).put(highs[r]);
                }
            } else if (longs != null) {
                data.nioBuffer(0, rows * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(longs, 0, rows);
            } else {
                data.nioBuffer(0, rows * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(doubles, 0, rows);
            }
            ArrowBuf validity = vector.getValidityBuffer();
            validity.setOne(0, rows / Byte.SIZE);
            for (int r = rows / Byte.SIZE * Byte.SIZE; r < rows; r++) {
                BitVectorHelper.setBit(validity, r);
            }
            if (anyNull) {
                for (int r = 0; r < rows; r++) {
                    if (nulls[r]) {
                        BitVectorHelper.unsetBit(validity, r);
                    }
                }
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    StringDictionary dictionary() {
        if (strings == null) {
            return null;
        }
        Utf8Strings entries = strings.build();
        stringBytes = entries.size() == 0 ? 0 : entries.offset(entries.size());
        return StringDictionary.ofUtf8(entries, strings.isDistinct());
    }

    void setNull(int row) {
        if (!type.nullable()) {
            throw new BadValueException(SqlState.NOT_NULL_VIOLATION, "a value (the column is NOT NULL)");
        }
        room(row);
        nulls[row] = true;
        anyNull = true;
    }

    /** Makes room for row {@code row}, which is about to be set (a row rejected midway is set again). */
    private void room(int row) {
        if (row >= capacity) {
            capacity = Math.max(row + 1, 2 * capacity);
            ints = ints == null ? null : Arrays.copyOf(ints, capacity);
            longs = longs == null ? null : Arrays.copyOf(longs, capacity);
            highs = highs == null ? null : Arrays.copyOf(highs, capacity);
            doubles = doubles == null ? null : Arrays.copyOf(doubles, capacity);
            nulls = Arrays.copyOf(nulls, capacity);
        }
        nulls[row] = false;
    }

    private void setInt(int row, int value) {
        room(row);
        ints[row] = value;
    }

    private void setLong(int row, long value) {
        room(row);
        longs[row] = value;
    }

    /** A wide DECIMAL's value, already at the column's scale and within its precision. */
    private void setWide(int row, BigDecimal value) {
        room(row);
        java.math.BigInteger unscaled = value.unscaledValue();
        longs[row] = unscaled.longValue();
        highs[row] = unscaled.shiftRight(Long.SIZE).longValue();
    }

    private void setDouble(int row, double value) {
        room(row);
        doubles[row] = value;
    }

    /** Parses the UTF-8 text {@code bytes[from..to)} into row {@code row}; {@code ascii}: the caller saw no byte above 127 (false: not known). */
    void parse(byte[] bytes, int from, int to, boolean ascii, int row) {
        if (type.isWideDecimal()) {
            BigDecimal value;
            try {
                value = new BigDecimal(ascii(bytes, from, to).trim());
            } catch (NumberFormatException e) {
                throw new BadValueException(SqlState.INVALID_TEXT_REPRESENTATION, "a " + type.sqlName());
            }
            setWide(row, inPrecision(value));
            return;
        }
        switch (type.kind()) {
            case INTEGER -> setInt(row, type.isNarrowInteger()
                    ? TextValueParser.parseNarrowInteger(bytes, from, to, type) : TextValueParser.parseInteger(bytes, from, to));
            case BIGINT -> setLong(row, TextValueParser.parseBigint(bytes, from, to));
            case DECIMAL -> setLong(row, TextValueParser.parseDecimal(bytes, from, to, type));
            case DOUBLE -> setDouble(row, real(TextValueParser.parseDouble(ascii(bytes, from, to))));
            case DATE -> setInt(row, TextValueParser.parseDate(bytes, from, to));
            case TIMESTAMP -> setLong(row, TextValueParser.parseTimestamp(ascii(bytes, from, to)));
            case INTERVAL -> throw new BadValueException(SqlState.FEATURE_NOT_SUPPORTED, "a column type that loads read (not INTERVAL)");
            case BOOLEAN -> setInt(row, TextValueParser.parseBoolean(ascii(bytes, from, to)) ? 1 : 0);
            case VARCHAR, CHAR -> setUtf8(bytes, from, to, ascii, row);
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
            case INTEGER -> setInt(row, inRange(exact(value).intValueExact()));
            case BIGINT -> setLong(row, exact(value).longValueExact());
            case DECIMAL -> {
                if (type.isWideDecimal()) {
                    setWide(row, inPrecision(exact(value)));
                } else {
                    setLong(row, unscaled(exact(value)));
                }
            }
            case DOUBLE -> setDouble(row, real(number(value).doubleValue()));
            case DATE -> setInt(row, value instanceof LocalDate d ? Math.toIntExact(d.toEpochDay())
                    : value instanceof java.time.LocalDateTime t ? Math.toIntExact(t.toLocalDate().toEpochDay()) : number(value).intValue());
            case TIMESTAMP -> setLong(row, timestamp(value));
            case INTERVAL -> throw new BadValueException(SqlState.FEATURE_NOT_SUPPORTED, "a column type that loads read (not INTERVAL)");
            case BOOLEAN -> setInt(row, value instanceof Boolean b ? (b ? 1 : 0)
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
            throw tooLong();
        }
        byte[] bytes = stored.getBytes(StandardCharsets.UTF_8);
        setInt(row, addString(bytes, 0, bytes.length));
    }

    /** As {@link #setString} for the UTF-8 text {@code bytes[from..to)}, which is checked to be valid UTF-8 unless known to be ASCII. */
    private void setUtf8(byte[] bytes, int from, int to, boolean ascii, int row) {
        if (!ascii && !isAscii(bytes, from, to)) {
            decodeUtf8(bytes, from, to); // only checks: the bytes are stored as they are
        }
        int end = to;
        if (type.kind() == TypeKind.CHAR) {
            while (end > from && isAsciiWhitespace(bytes[end - 1])) {
                end--;
            }
            if (end > from && bytes[end - 1] < 0) {
                setString(decodeUtf8(bytes, from, to), row); // may end in non-ASCII white space, which only decoding finds
                return;
            }
        }
        if (type.precision() > 0 && end - from > type.precision() && codePoints(bytes, from, end) > type.precision()) {
            throw tooLong();
        }
        setInt(row, addString(bytes, from, end));
    }

    private int addString(byte[] bytes, int from, int to) {
        if (!strings.isDistinct()) {
            return strings.append(bytes, from, to);
        }
        if (++stringsAdded == SAMPLE_VALUES && strings.size() > SAMPLE_VALUES / 2) {
            return strings.append(bytes, from, to); // mostly distinct: stop looking up
        }
        return strings.add(bytes, from, to);
    }

    /** True when no byte has its high bit set; eight bytes at a time. */
    private static boolean isAscii(byte[] bytes, int from, int to) {
        long highBits = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            highBits |= (long) LONGS.get(bytes, i);
        }
        for (; i < to; i++) {
            highBits |= bytes[i];
        }
        return (highBits & 0x8080_8080_8080_8080L) == 0;
    }

    /** The ASCII characters {@link String#stripTrailing} strips. */
    private static boolean isAsciiWhitespace(byte b) {
        return b == ' ' || b >= '\t' && b <= '\r' || b >= 0x1C && b <= 0x1F;
    }

    /** Characters in valid UTF-8: every byte but the continuation bytes. */
    private static int codePoints(byte[] bytes, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            count += (bytes[i] & 0xC0) != 0x80 ? 1 : 0;
        }
        return count;
    }

    private BadValueException tooLong() {
        return new BadValueException(SqlState.STRING_DATA_RIGHT_TRUNCATION, "a " + type.sqlName() + " of at most "
                + type.precision() + " characters");
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

}
