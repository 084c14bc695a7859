package io.warpdb.core.types;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.sql.Types;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A SQL type with its parameters. {@code precision} is the DECIMAL precision or the CHAR/VARCHAR
 * length (0 when unbounded), {@code scale} the DECIMAL scale.
 */
public record DataType(TypeKind kind, int precision, int scale, boolean nullable) {
    /** Largest DECIMAL precision that fits the scaled 64-bit representation. */
    public static final int MAX_DECIMAL_PRECISION = 18;
    /** Fraction digits of a TIMESTAMP's seconds: microseconds. */
    public static final int TIMESTAMP_PRECISION = 6;

    public DataType {
        if (kind == TypeKind.DECIMAL && (precision < 1 || precision > MAX_DECIMAL_PRECISION || scale < 0 || scale > precision)) {
            throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "DECIMAL(" + precision + "," + scale + ") is not supported: precision must be 1.." + MAX_DECIMAL_PRECISION
                            + " and scale 0..precision");
        }
    }

    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0, true);
    public static final DataType INTEGER = new DataType(TypeKind.INTEGER, 0, 0, true);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0, true);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0, true);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0, true);
    public static final DataType TIMESTAMP = new DataType(TypeKind.TIMESTAMP, 0, 0, true);
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

    public DataType withNullable(boolean isNullable) {
        return isNullable == nullable ? this : new DataType(kind, precision, scale, isNullable);
    }

    /**
     * The Arrow type of the physical vector; strings are their int32 dictionary codes, TIMESTAMP a
     * plain int64 (so that encodings and executors treat it as any int64 column).
     */
    public ArrowType arrowType() {
        return switch (kind) {
            case BOOLEAN -> ArrowType.Bool.INSTANCE;
            case INTEGER, VARCHAR, CHAR -> new ArrowType.Int(32, true);
            case BIGINT, DECIMAL, TIMESTAMP -> new ArrowType.Int(64, true);
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
            case INTEGER -> Types.INTEGER;
            case BIGINT -> Types.BIGINT;
            case DOUBLE -> Types.DOUBLE;
            case DECIMAL -> Types.DECIMAL;
            case DATE -> Types.DATE;
            case TIMESTAMP -> Types.TIMESTAMP;
            case VARCHAR, CHAR -> Types.VARCHAR;
        };
    }

    /** The Java class JDBC's getObject returns for this type. */
    public Class<?> javaClass() {
        return switch (kind) {
            case BOOLEAN -> Boolean.class;
            case INTEGER -> Integer.class;
            case BIGINT -> Long.class;
            case DOUBLE -> Double.class;
            case DECIMAL -> java.math.BigDecimal.class;
            case DATE -> java.sql.Date.class;
            case TIMESTAMP -> java.sql.Timestamp.class;
            case VARCHAR, CHAR -> String.class;
        };
    }

    /** The type as SQL spells it, e.g. {@code DECIMAL(15,2)} or {@code VARCHAR(25)}. */
    public String sqlName() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case VARCHAR -> precision > 0 ? "VARCHAR(" + precision + ")" : "VARCHAR";
            case CHAR -> "CHAR(" + precision + ")";
            default -> kind.name();
        };
    }

    /** Display width for clients (JDBC getColumnDisplaySize / getPrecision). */
    public int displaySize() {
        return switch (kind) {
            case BOOLEAN -> 5;
            case INTEGER -> 11;
            case BIGINT -> 20;
            case DOUBLE -> 24;
            case DECIMAL -> precision + 2;
            case DATE -> 10;
            case TIMESTAMP -> 26;
            case VARCHAR -> precision > 0 ? precision : 65536;
            case CHAR -> precision;
        };
    }

    @Override
    public String toString() {
        return sqlName() + (nullable ? "" : " NOT NULL");
    }
}
