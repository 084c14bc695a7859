package io.warpdb.fuzz.ast;

/**
 * A column or expression type of the SQL both engines share. {@code length} is the declared
 * length of CHAR(n) / VARCHAR(n) (0 for an unbounded VARCHAR); {@code precision} and
 * {@code scale} belong to DECIMAL(p,s).
 */
public record SqlType(Kind kind, int precision, int scale, int length) {
    public enum Kind { BOOLEAN, INTEGER, BIGINT, DOUBLE, DECIMAL, DATE, CHAR, VARCHAR }

    /** Kinds whose values compare with each other without a cast. */
    public enum Family { BOOLEAN, NUMBER, DATE, STRING }

    /** WarpDB's widest DECIMAL (a scaled 64-bit integer). */
    public static final int MAX_DECIMAL_PRECISION = 18;

    public static final SqlType BOOLEAN = new SqlType(Kind.BOOLEAN, 0, 0, 0);
    public static final SqlType INTEGER = new SqlType(Kind.INTEGER, 0, 0, 0);
    public static final SqlType BIGINT = new SqlType(Kind.BIGINT, 0, 0, 0);
    public static final SqlType DOUBLE = new SqlType(Kind.DOUBLE, 0, 0, 0);
    public static final SqlType DATE = new SqlType(Kind.DATE, 0, 0, 0);
    public static final SqlType VARCHAR = new SqlType(Kind.VARCHAR, 0, 0, 0);

    public static SqlType decimal(int precision, int scale) {
        return new SqlType(Kind.DECIMAL, precision, scale, 0);
    }

    public static SqlType charOf(int length) {
        return new SqlType(Kind.CHAR, 0, 0, length);
    }

    public static SqlType varchar(int length) {
        return new SqlType(Kind.VARCHAR, 0, 0, length);
    }

    public Family family() {
        return switch (kind) {
            case BOOLEAN -> Family.BOOLEAN;
            case INTEGER, BIGINT, DOUBLE, DECIMAL -> Family.NUMBER;
            case DATE -> Family.DATE;
            case CHAR, VARCHAR -> Family.STRING;
        };
    }

    public boolean isNumeric() {
        return family() == Family.NUMBER;
    }

    /** INTEGER or BIGINT. */
    public boolean isInteger() {
        return kind == Kind.INTEGER || kind == Kind.BIGINT;
    }

    public boolean isString() {
        return family() == Family.STRING;
    }

    /** The type as written in DDL and CAST. */
    public String sql() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case CHAR -> "CHAR(" + length + ")";
            case VARCHAR -> length > 0 ? "VARCHAR(" + length + ")" : "VARCHAR";
            default -> kind.name();
        };
    }

    @Override
    public String toString() {
        return sql();
    }
}
