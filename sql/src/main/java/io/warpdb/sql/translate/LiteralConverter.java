package io.warpdb.sql.translate;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Builds WarpDB {@link Literal}s of a given type from Calcite literals and from JDBC parameter
 * values, with the same conversion and range rules as the executors' CAST.
 */
public final class LiteralConverter {
    private LiteralConverter() {
    }

    /** The Java value of a Calcite literal: BigDecimal, Double, String, Boolean, LocalDate, LocalDateTime or null. */
    public static Object javaValue(RexLiteral lit) {
        if (lit.isNull()) {
            return null;
        }
        return switch (lit.getType().getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> lit.getValueAs(BigDecimal.class);
            case FLOAT, REAL, DOUBLE -> lit.getValueAs(Double.class);
            case CHAR, VARCHAR -> lit.getValueAs(String.class);
            case BOOLEAN -> lit.getValueAs(Boolean.class);
            case DATE -> LocalDate.ofEpochDay(lit.getValueAs(DateString.class).getDaysSinceEpoch());
            case TIMESTAMP -> Timestamps.toLocalDateTime(Timestamps.parse(lit.getValueAs(TimestampString.class).toString()));
            case NULL -> null;
            default -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "literal " + lit + " of type " + lit.getType() + " is not supported");
        };
    }

    /** A literal of {@code type} holding {@code value} (a JDBC or Calcite value, see {@link #javaValue}). */
    public static Literal toLiteral(Object value, DataType type) {
        if (value == null) {
            return Literal.ofNull(type);
        }
        DataType t = type.withNullable(false);
        Object normalized = switch (type.kind()) {
            case BOOLEAN -> toBoolean(value);
            case INTEGER -> checkInt(exact(value, 0), value, type);
            case BIGINT -> exact(value, 0);
            case DECIMAL -> type.isWideDecimal() ? wideExact(value, type) : (Object) exact(value, type.scale(), type.precision());
            case DOUBLE -> type.convertToDeclared(toDouble(value));
            case DATE -> toDate(value);
            case TIMESTAMP -> toTimestamp(value);
            case INTERVAL -> throw new WarpException(SqlState.FEATURE_NOT_SUPPORTED,
                    "an INTERVAL value cannot be given as a constant or parameter (" + value + ")");
            case VARCHAR -> value.toString();
            case CHAR -> value.toString().stripTrailing();
        };
        return new Literal(normalized, t);
    }

    private static Boolean toBoolean(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        String s = v.toString().trim();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equalsIgnoreCase("false")) {
            return false;
        }
        throw badText(v, "BOOLEAN");
    }

    private static long exact(Object v, int scale) {
        return exact(v, scale, 19);
    }

    private static long exact(Object v, int scale, int precision) {
        BigDecimal d;
        try {
            if (v instanceof BigDecimal b) {
                d = b;
            } else if (v instanceof Double || v instanceof Float) {
                d = BigDecimal.valueOf(((Number) v).doubleValue());
            } else if (v instanceof Number n) {
                d = BigDecimal.valueOf(n.longValue());
            } else {
                d = new BigDecimal(v.toString().trim());
            }
        } catch (NumberFormatException e) {
            throw badText(v, scale == 0 ? "an integer" : "DECIMAL");
        }
        BigDecimal scaled = d.setScale(scale, RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > precision - scale || scaled.unscaledValue().bitLength() > 63) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + v + " is out of range for "
                    + (precision == 19 ? "BIGINT" : "DECIMAL(" + precision + "," + scale + ")"));
        }
        return scaled.unscaledValue().longValue();
    }

    /** A wide DECIMAL's unscaled value, rounded HALF_UP to its scale; 22003 beyond its precision. */
    private static BigInteger wideExact(Object v, DataType type) {
        BigDecimal d;
        try {
            d = v instanceof BigDecimal b ? b : v instanceof Double || v instanceof Float ? BigDecimal.valueOf(((Number) v).doubleValue())
                    : v instanceof Number n ? BigDecimal.valueOf(n.longValue()) : new BigDecimal(v.toString().trim());
        } catch (NumberFormatException e) {
            throw badText(v, "DECIMAL");
        }
        BigInteger unscaled = d.setScale(type.scale(), RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(type.precision())) >= 0) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + v + " is out of range for " + type.sqlName());
        }
        return unscaled;
    }

    private static long checkInt(long v, Object original, DataType type) {
        try {
            return Decimals.checkFits(v, type);
        } catch (WarpException e) {
            throw new WarpException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + original + " is out of range for " + type.sqlName());
        }
    }

    private static Double toDouble(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw badText(v, "DOUBLE");
        }
    }

    private static Long toDate(Object v) {
        if (v instanceof LocalDate d) {
            return d.toEpochDay();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toEpochDay();
        }
        if (v instanceof java.util.Date d) {
            return new java.sql.Date(d.getTime()).toLocalDate().toEpochDay();
        }
        try {
            return Dates.parse(v.toString().trim());
        } catch (DateTimeParseException e) {
            throw badText(v, "DATE");
        }
    }

    private static Long toTimestamp(Object v) {
        if (v instanceof LocalDateTime t) {
            return Timestamps.of(t);
        }
        if (v instanceof java.sql.Timestamp t) {
            return Timestamps.of(t.toLocalDateTime());
        }
        if (v instanceof LocalDate d) {
            return Timestamps.ofEpochDay(d.toEpochDay());
        }
        if (v instanceof java.sql.Date d) {
            return Timestamps.ofEpochDay(d.toLocalDate().toEpochDay());
        }
        try {
            return Timestamps.parse(v.toString().trim());
        } catch (DateTimeParseException e) {
            throw badText(v, "TIMESTAMP");
        }
    }

    private static WarpException badText(Object v, String type) {
        return new WarpException(SqlState.INVALID_TEXT_REPRESENTATION, "invalid value for " + type + ": '" + v + "'");
    }
}
