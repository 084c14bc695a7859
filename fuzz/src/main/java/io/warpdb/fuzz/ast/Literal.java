package io.warpdb.fuzz.ast;

import java.math.BigDecimal;
import java.util.List;

/**
 * A constant. Values are Java objects: Boolean, Integer (INTEGER), Long (BIGINT), Double,
 * BigDecimal (DECIMAL), LocalDate, String (CHAR/VARCHAR), or null.
 */
public record Literal(Object value, SqlType type) implements Expr {
    /** Integers beyond this many digits are written as casts: WarpDB rejects 19-digit literals (sqltest pending/bigint_literal). */
    private static final long LARGEST_PLAIN_LITERAL = 999_999_999_999_999_999L;

    public static Literal nullOf(SqlType type) {
        return new Literal(null, type);
    }

    @Override
    public String render(Dialect dialect) {
        return value == null ? "CAST(NULL AS " + type.sql() + ")" : sql(value, type);
    }

    /**
     * A non-null value as SQL that both engines read as a value of {@code type}. Negative
     * numbers are parenthesized, so that {@code a - (-1)} never becomes the comment {@code --}.
     */
    public static String sql(Object value, SqlType type) {
        return switch (type.kind()) {
            case BOOLEAN -> (Boolean) value ? "TRUE" : "FALSE";
            case INTEGER -> {
                int v = (Integer) value;
                // -2147483648 would be the negation of a BIGINT literal.
                yield v == Integer.MIN_VALUE ? "CAST('" + v + "' AS INTEGER)" : signed(Integer.toString(v));
            }
            case BIGINT -> {
                long v = (Long) value;
                if (v < -LARGEST_PLAIN_LITERAL || v > LARGEST_PLAIN_LITERAL) {
                    yield "CAST('" + v + "' AS BIGINT)";
                }
                // A literal in INTEGER range would be typed INTEGER.
                yield v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? "CAST(" + signed(Long.toString(v)) + " AS BIGINT)"
                        : signed(Long.toString(v));
            }
            case DOUBLE -> {
                String s = Double.toString((Double) value);
                yield signed(s.contains("E") ? s : s + "E0");
            }
            case DECIMAL -> {
                BigDecimal v = (BigDecimal) value;
                // Without a point the literal would be an integer; the cast keeps it DECIMAL.
                yield v.scale() > 0 ? signed(v.toPlainString()) : "CAST(" + signed(v.toPlainString()) + " AS " + type.sql() + ")";
            }
            case DATE -> "DATE '" + value + "'";
            case CHAR, VARCHAR -> quote((String) value);
        };
    }

    /** A string literal, quotes doubled. */
    public static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    private static String signed(String number) {
        return number.startsWith("-") ? "(" + number + ")" : number;
    }

    @Override
    public List<Node> children() {
        return List.of();
    }

    @Override
    public Node withChildren(List<Node> children) {
        return this;
    }
}
