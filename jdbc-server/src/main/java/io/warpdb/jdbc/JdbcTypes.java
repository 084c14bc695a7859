package io.warpdb.jdbc;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.DataType;
import io.warpdb.core.types.TypeKind;
import java.sql.DatabaseMetaData;
import java.sql.ResultSetMetaData;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.SqlType;

/**
 * How WarpDB's SQL types appear through JDBC: names, sizes, nullability and the value
 * representation on the Avatica wire. Type names are bare ({@code DECIMAL}, not
 * {@code DECIMAL(15,2)}): precision and scale travel in their own metadata fields and tools
 * append them themselves.
 */
final class JdbcTypes {
    private static final long MICROS_PER_MILLI = 1000;
    private JdbcTypes() {
    }

    static String typeName(DataType type) {
        return type.kind() == TypeKind.DECIMAL || type.kind().isString() ? type.kind().name() : type.sqlName();
    }

    /** JDBC precision: decimal digits for numbers, characters for strings and dates. */
    static int precision(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case INTEGER -> type.precision() == DataType.SMALLINT_BITS ? 5 : type.precision() == DataType.TINYINT_BITS ? 3 : 10;
            case BIGINT -> 19;
            case DOUBLE -> type.isReal() ? 7 : 17;
            case DECIMAL -> type.precision();
            case DATE, TIMESTAMP, INTERVAL, VARCHAR, CHAR -> type.displaySize();
        };
    }

    /** Radix of {@link #precision} for numbers; null for the others. */
    static Integer radix(DataType type) {
        return type.kind().isNumeric() ? 10 : null;
    }

    static boolean signed(DataType type) {
        return type.kind().isNumeric();
    }

    static boolean caseSensitive(DataType type) {
        return type.kind().isString();
    }

    /** {@link ResultSetMetaData} and {@link DatabaseMetaData} share these nullability codes. */
    static int nullability(DataType type) {
        return type.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls;
    }

    /**
     * The Avatica type of a column. The representation is the one Avatica's own JDBC server
     * uses for each SQL type, so that stock remote clients decode values as they expect
     * (DATE, for example, travels as an int count of days). An INTERVAL (Types.OTHER, as PostgreSQL's
     * driver reports one) travels as its text, DuckDB's {@code 1 day 03:04:05.5}.
     */
    static ColumnMetaData.AvaticaType avaticaType(DataType type) {
        ColumnMetaData.Rep rep = type.kind() == TypeKind.INTERVAL ? ColumnMetaData.Rep.STRING
                : ColumnMetaData.Rep.of(SqlType.valueOf(type.jdbcType()).internal);
        return ColumnMetaData.scalar(type.jdbcType(), typeName(type), rep);
    }

    /**
     * A batch's value in its wire form. A DATE travels as its count of days, read from the vector:
     * a java.sql.Date of a year before 1 does not convert back (0000-02-29 failed as "February 29
     * of year 1"). A TIMESTAMP travels as Avatica's own server sends one: milliseconds since 1970
     * of its wall-clock time read as UTC, which clients show as that wall-clock time in any zone
     * (Avatica's wire has no finer unit, so microseconds are cut to the millisecond).
     */
    static Object toWire(Batch batch, int column, int row) {
        FieldVector vector = batch.vector(column);
        if (vector instanceof DateDayVector days) {
            return days.isNull(row) ? null : days.get(row);
        }
        if (batch.schema().type(column).kind() == TypeKind.TIMESTAMP) {
            return vector.isNull(row) ? null : Math.floorDiv(((BigIntVector) vector).get(row), MICROS_PER_MILLI);
        }
        return batch.getObject(column, row);
    }
}
