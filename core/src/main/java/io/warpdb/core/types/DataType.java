package io.warpdb.core.types;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.sql.Types;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A SQL type with its parameters. {@code precision} is the DECIMAL precision, the CHAR/VARCHAR
 * length (0 when unbounded), the declared width in bits of a narrow integer (INTEGER kind:
 * {@link #SMALLINT_BITS} for SMALLINT, {@link #TINYINT_BITS} for TINYINT, 0 for INTEGER itself) or
 * {@link #REAL_BITS} for REAL (DOUBLE kind); {@code scale} the DECIMAL scale.
 *
 * <p>SMALLINT and TINYINT are held widened as int32 and REAL as a float64 that is always a float32
 * value (every operation that makes one rounds it), so both executors compute on them as on
 * INTEGER and DOUBLE; what makes them their declared type is the range check
 * ({@link io.warpdb.core.value.Decimals#checkFits}: 22003 outside it), the rounding to float32
 * ({@link #roundToDeclared}), their names and their JDBC types.
 */
public record DataType(TypeKind kind, int precision, int scale, boolean nullable) {
    /** Largest DECIMAL precision that fits the scaled 64-bit representation; wider ones are 128-bit ({@link #isWideDecimal}). */
    public static final int MAX_DECIMAL_PRECISION = 18;
    /** Largest DECIMAL precision: a scaled 128-bit integer. */
    public static final int MAX_WIDE_DECIMAL_PRECISION = 38;
    /** Fraction digits of a TIMESTAMP's seconds: microseconds. */
    public static final int TIMESTAMP_PRECISION = 6;

    public static final int SMALLINT_BITS = 16;
    public static final int TINYINT_BITS = 8;
    /** A REAL's significand bits: what marks a DOUBLE-kind type as REAL. */
    public static final int REAL_BITS = 24;

    public DataType {
        if (kind == TypeKind.INTEGER && precision != 0 && precision != SMALLINT_BITS && precision != TINYINT_BITS
                || kind == TypeKind.DOUBLE && precision != 0 && precision != REAL_BITS) {
            throw new IllegalArgumentException(kind + " has no variant of precision " + precision);
        }
        if (kind == TypeKind.DECIMAL && (precision < 1 || precision > MAX_WIDE_DECIMAL_PRECISION || scale < 0 || scale > precision)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "DECIMAL(" + precision + "," + scale + ") is not supported: precision must be 1.." + MAX_WIDE_DECIMAL_PRECISION
                            + " and scale 0..precision");
        }
    }

    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0, true);
    public static final DataType INTEGER = new DataType(TypeKind.INTEGER, 0, 0, true);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0, true);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0, true);
    public static final DataType SMALLINT = new DataType(TypeKind.INTEGER, SMALLINT_BITS, 0, true);
    public static final DataType TINYINT = new DataType(TypeKind.INTEGER, TINYINT_BITS, 0, true);
    public static final DataType REAL = new DataType(TypeKind.DOUBLE, REAL_BITS, 0, true);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0, true);
    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, 0, 0, true);
    public static final DataType INTERVAL = new DataType(TypeKind.INTERVAL, 0, 0, true);
    public static final DataType VARCHAR = new DataType(TypeKind.VARCHAR, 0, 0, true);

    public static DataType decimal(int precision, int scale) {
        return new DataType(TypeKind.DECIMAL, precision, scale, true);
    }

    public static DataType varchar(int length) {
        return new DataType(TypeKind.VARCHAR, length, 0, true);
    }

    public static DataType chars(int length) {
        return new DataType(TypeKind.CHAR, length, 0, true);
    }

    /** Whether this is SMALLINT or TINYINT: an INTEGER narrower than 32 bits. */
    public boolean isNarrowInteger() {
        return kind == TypeKind.INTEGER && precision != 0;
    }

    /**
     * Whether this is a DECIMAL of more than {@link #MAX_DECIMAL_PRECISION} digits: held as a
     * 128-bit unscaled value (Arrow decimal128; the CPU executor's columns carry a high word per row).
     */
    public boolean isWideDecimal() {
        return kind == TypeKind.DECIMAL && precision > MAX_DECIMAL_PRECISION;
    }

    public boolean isReal() {
        return kind == TypeKind.DOUBLE && precision == REAL_BITS;
    }

    /**
     * A computed DOUBLE-kind value as this type holds it: rounded to the nearest float32 for REAL
     * (beyond its range an infinity, as IEEE arithmetic and DuckDB give it), unchanged for DOUBLE.
     */
    public double roundToDeclared(double v) {
        return isReal() ? (float) v : v;
    }

    /**
     * A value converted to this DOUBLE-kind type (CAST, INSERT, a load): as {@link #roundToDeclared},
     * but 22003 when a finite value is beyond REAL's range.
     */
    public double convertToDeclared(double v) {
        double rounded = roundToDeclared(v);
        if (Double.isInfinite(rounded) && !Double.isInfinite(v)) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + v + " is out of range for REAL");
        }
        return rounded;
    }

    public DataType withNullable(boolean isNullable) {
        return isNullable == nullable ? this : new DataType(kind, precision, scale, isNullable);
    }

    /**
     * The Arrow type of the physical vector; strings are their int32 dictionary codes, TIMESTAMP a
     * plain int64 (so that encodings and executors treat it as any int64 column), a wide DECIMAL
     * Arrow's decimal128.
     */
    public ArrowType arrowType() {
        if (isWideDecimal()) {
            return new ArrowType.Decimal(precision, scale, 128);
        }
        return switch (kind) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INTEGER, VARCHAR, CHAR -> new ArrowType.Int(32, true);
            case BIGINT, DECIMAL, TIMESTAMP, INTERVAL -> new ArrowType.Int(64, true);
            case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DATE -> new ArrowType.Date(DateUnit.DAY);
        };
    }

    /**
     * The {@link java.sql.Types} code reported to JDBC clients. CHAR(n) is reported as VARCHAR
     * (its type name stays CHAR(n)): WarpDB keeps CHAR values without trailing pad spaces, and
     * JDBC clients such as Avatica's pad values of Types.CHAR columns to their length.
     */
    public int jdbcType() {
        return switch (kind) {
            case BOOLEAN -> Types.BOOLEAN;
            case INTEGER -> precision == SMALLINT_BITS ? Types.SMALLINT : precision == TINYINT_BITS ? Types.TINYINT : Types.INTEGER;
            case BIGINT -> Types.BIGINT;
            case DOUBLE -> isReal() ? Types.REAL : Types.DOUBLE;
            case DECIMAL -> Types.DECIMAL;
            case DATE -> Types.DATE;
            case TIMESTAMP -> Types.TIMESTAMP;
            case INTERVAL -> Types.OTHER;
            case VARCHAR, CHAR -> Types.VARCHAR;
        };
    }

    /** The Java class JDBC's getObject returns for this type. */
    public Class<?> javaClass() {
        return switch (kind) {
            case BOOLEAN -> Boolean.class;
            case INTEGER -> precision == SMALLINT_BITS ? Short.class : precision == TINYINT_BITS ? Byte.class : Integer.class;
            case BIGINT -> Long.class;
            case DOUBLE -> isReal() ? Float.class : Double.class;
            case DECIMAL -> java.math.BigDecimal.class;
            case DATE -> java.sql.Date.class;
            case TIMESTAMP -> java.sql.Timestamp.class;
            case INTERVAL -> String.class;
            case VARCHAR, CHAR -> String.class;
        };
    }

    /** The type as SQL spells it, e.g. {@code DECIMAL(15,2)} or {@code VARCHAR(25)}. */
    public String sqlName() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case VARCHAR -> precision > 0 ? "VARCHAR(" + precision + ")" : "VARCHAR";
            case CHAR -> "CHAR(" + precision + ")";
            case INTEGER -> precision == SMALLINT_BITS ? "SMALLINT" : precision == TINYINT_BITS ? "TINYINT" : "INTEGER";
            case DOUBLE -> isReal() ? "REAL" : "DOUBLE";
            default -> kind.name();
        };
    }

    /** Display width for clients (JDBC getColumnDisplaySize / getPrecision). */
    public int displaySize() {
        return switch (kind) {
            case BOOLEAN -> 5;
            case INTEGER -> precision == SMALLINT_BITS ? 6 : precision == TINYINT_BITS ? 4 : 11;
            case BIGINT -> 20;
            case DOUBLE -> isReal() ? 15 : 24;
            case DECIMAL -> precision + 2;
            case DATE -> 10;
            case TIMESTAMP -> 26;
            case INTERVAL -> 32;
            case VARCHAR -> precision > 0 ? precision : 65536;
            case CHAR -> precision;
        };
    }

    @Override
    public String toString() {
        return sqlName() + (nullable ? "" : " NOT NULL");
    }
}
