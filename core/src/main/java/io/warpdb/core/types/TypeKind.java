package io.warpdb.core.types;

/**
 * The SQL types WarpDB stores and computes on. Physical layout (see {@link DataType#arrowType()}):
 * BOOLEAN is an Arrow bit vector, INTEGER int32, BIGINT int64, DOUBLE float64, DECIMAL an int64
 * holding the value times 10^scale, DATE int32 days since 1970-01-01, TIMESTAMP int64
 * microseconds since 1970-01-01 00:00:00 (no time zone), INTERVAL int64 microseconds (a day-time
 * span: the difference of two timestamps), and VARCHAR/CHAR int32 dictionary codes
 * into a {@link io.warpdb.core.batch.StringDictionary}.
 */
public enum TypeKind {
    BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, TIMESTAMP, INTERVAL, VARCHAR, CHAR;

    public boolean isString() {
        return this == VARCHAR || this == CHAR;
    }

    /** Types whose values are exact integers in the physical vector (DECIMAL: unscaled). */
    public boolean isExactNumeric() {
        return this == INTEGER || this == BIGINT || this == DECIMAL;
    }

    public boolean isNumeric() {
        return isExactNumeric() || this == DOUBLE;
    }

    /** DATE and TIMESTAMP. */
    public boolean isDatetime() {
        return this == DATE || this == TIMESTAMP;
    }
}
