package io.warpdb.core.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.core.value.Timestamps;

/**
 * A constant. The value is normalized by type: null for NULL; Boolean for BOOLEAN; Long for
 * INTEGER, BIGINT, DATE (days since epoch), TIMESTAMP (microseconds since epoch) and DECIMAL (unscaled, i.e. value * 10^scale);
 * BigInteger for a wide DECIMAL (precision over 18; unscaled); Double for DOUBLE; String for VARCHAR and CHAR.
 */
public record Literal(Object value, DataType type) implements Expr {
    public Literal {
        if (value != null) {
            Class<?> expected = type.isWideDecimal() ? java.math.BigInteger.class : switch (type.kind()) {
                case BOOLEAN -> Boolean.class;
                case INTEGER, BIGINT, DATE, TIMESTAMP, INTERVAL, DECIMAL -> Long.class;
                case DOUBLE -> Double.class;
                case VARCHAR, CHAR -> String.class;
            };
            if (!expected.isInstance(value)) {
                throw new IllegalArgumentException("literal of type " + type + " must hold a " + expected.getSimpleName()
                        + ", not " + value.getClass().getSimpleName());
            }
        }
    }

    public static Literal ofNull(DataType type) {
        return new Literal(null, type.withNullable(true));
    }

    public static Literal ofLong(long v, DataType type) {
        return new Literal(v, type.withNullable(false));
    }

    public static Literal ofBoolean(boolean v) {
        return new Literal(v, DataType.BOOLEAN.withNullable(false));
    }

    public static Literal ofString(String v) {
        return new Literal(v, DataType.varchar(v.length()).withNullable(false));
    }

    public boolean isNull() {
        return value == null;
    }

    @Override
    public String toString() {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case VARCHAR, CHAR -> "'" + value + "'";
            case DECIMAL -> (type.isWideDecimal() ? new java.math.BigDecimal((java.math.BigInteger) value, type.scale())
                    : java.math.BigDecimal.valueOf((Long) value, type.scale())).toPlainString();
            case DATE -> "DATE '" + java.time.LocalDate.ofEpochDay((Long) value) + "'";
            case TIMESTAMP -> "TIMESTAMP '" + Timestamps.format((Long) value) + "'";
            default -> value.toString();
        };
    }
}
