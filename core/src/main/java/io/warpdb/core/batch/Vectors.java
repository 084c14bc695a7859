package io.warpdb.core.batch;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Timestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.FieldType;

/** Creating vectors for SQL types and moving single values in and out of them. */
public final class Vectors {
    private Vectors() {
    }

    /** A new, empty vector of the physical type of {@code type}, with room for {@code capacity} rows. */
    public static FieldVector allocate(String name, DataType type, int capacity, BufferAllocator allocator) {
        FieldType fieldType = new FieldType(true, type.arrowType(), null);
        FieldVector v = fieldType.createNewSingleVector(name, allocator, null);
        v.setInitialCapacity(Math.max(capacity, 1));
        v.allocateNew();
        return v;
    }

    /**
     * The value at {@code row} as JDBC returns it: Boolean, Integer (Short, Byte), Long, Double (Float), BigDecimal
     * (DECIMAL), java.sql.Date (DATE, from epoch days), java.sql.Timestamp (TIMESTAMP, the wall-clock
     * time in the JVM's zone), String (through the dictionary; an INTERVAL as DuckDB writes it); null for NULL.
     */
    public static Object getObject(FieldVector v, DataType type, StringDictionary dict, int row) {
        if (v.isNull(row)) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> ((BitVector) v).get(row) != 0;
            case INTEGER -> narrow(((IntVector) v).get(row), type);
            case BIGINT -> ((BigIntVector) v).get(row);
            case DOUBLE -> type.isReal() ? (Object) (float) ((Float8Vector) v).get(row) : (Object) ((Float8Vector) v).get(row);
            case DECIMAL -> type.isWideDecimal() ? ((DecimalVector) v).getObject(row) : BigDecimal.valueOf(((BigIntVector) v).get(row), type.scale());
            case DATE -> java.sql.Date.valueOf(LocalDate.ofEpochDay(((DateDayVector) v).get(row)));
            case TIMESTAMP -> java.sql.Timestamp.valueOf(Timestamps.toLocalDateTime(((BigIntVector) v).get(row)));
            case INTERVAL -> Timestamps.formatInterval(((BigIntVector) v).get(row));
            case VARCHAR, CHAR -> dict.get(((IntVector) v).get(row));
        };
    }

    /** An INTEGER-kind value as the Java class of its declared type: Short, Byte or Integer. */
    private static Object narrow(int value, DataType type) {
        return switch (type.precision()) {
            case DataType.SMALLINT_BITS -> (short) value;
            case DataType.TINYINT_BITS -> (byte) value;
            default -> value;
        };
    }

    /**
     * Sets row {@code row} from the normalized literal form used by {@link io.warpdb.core.expr.Literal}:
     * Boolean, Long (INTEGER, BIGINT, DATE days, TIMESTAMP microseconds, DECIMAL unscaled), BigInteger (a wide DECIMAL,
     * unscaled), Double, or for strings the Integer code.
     */
    public static void setNormalized(FieldVector v, DataType type, int row, Object value) {
        if (value == null) {
            v.setNull(row);
            return;
        }
        if (type.isWideDecimal()) {
            ((DecimalVector) v).setSafe(row, new BigDecimal((BigInteger) value, type.scale()));
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> ((BitVector) v).setSafe(row, ((Boolean) value) ? 1 : 0);
            case INTEGER -> ((IntVector) v).setSafe(row, ((Number) value).intValue());
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> ((BigIntVector) v).setSafe(row, ((Number) value).longValue());
            case DOUBLE -> ((Float8Vector) v).setSafe(row, ((Number) value).doubleValue());
            case DATE -> ((DateDayVector) v).setSafe(row, ((Number) value).intValue());
            case VARCHAR, CHAR -> ((IntVector) v).setSafe(row, ((Number) value).intValue());
        }
    }
}
