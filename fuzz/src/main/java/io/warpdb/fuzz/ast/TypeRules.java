package io.warpdb.fuzz.ast;

import io.warpdb.fuzz.ast.SqlType.Kind;

/**
 * The result types WarpDB gives expressions (standard SQL as Calcite types it, see
 * sqltest/README.md). The generator types its trees with these rules, so that it knows, for
 * example, that {@code a / b} is an integer division.
 */
public final class TypeRules {
    private TypeRules() {
    }

    /** The type both of two values of one family convert to (CASE branches, COALESCE, UNION columns). */
    public static SqlType common(SqlType a, SqlType b) {
        if (a.family() != b.family()) {
            throw new IllegalArgumentException("no common type of " + a + " and " + b);
        }
        if (a.equals(b)) {
            return a;
        }
        return switch (a.family()) {
            case NUMBER -> {
                if (a.kind() == Kind.DOUBLE || b.kind() == Kind.DOUBLE) {
                    yield SqlType.DOUBLE;
                }
                if (a.isInteger() && b.isInteger()) {
                    yield a.kind() == Kind.BIGINT || b.kind() == Kind.BIGINT ? SqlType.BIGINT : SqlType.INTEGER;
                }
                int scale = Math.max(scale(a), scale(b));
                int integerDigits = Math.max(precision(a) - scale(a), precision(b) - scale(b));
                yield SqlType.decimal(Math.min(SqlType.MAX_DECIMAL_PRECISION, integerDigits + scale), scale);
            }
            case STRING -> a.kind() == Kind.CHAR && b.kind() == Kind.CHAR ? SqlType.charOf(Math.max(a.length(), b.length()))
                    : SqlType.VARCHAR;
            default -> a;
        };
    }

    /** The type of {@code a op b} for + - * / %. */
    public static SqlType arithmetic(Binary.Op op, SqlType a, SqlType b) {
        if (a.kind() == Kind.DOUBLE || b.kind() == Kind.DOUBLE) {
            return SqlType.DOUBLE;
        }
        if (a.isInteger() && b.isInteger()) {
            return a.kind() == Kind.BIGINT || b.kind() == Kind.BIGINT ? SqlType.BIGINT : SqlType.INTEGER;
        }
        int s1 = scale(a);
        int s2 = scale(b);
        return switch (op) {
            // WarpDB divides decimals in DOUBLE (sqltest: DECIMAL / DECIMAL is DOUBLE).
            case DIVIDE -> SqlType.DOUBLE;
            case MULTIPLY -> product(precision(a) - s1 + precision(b) - s2, s1 + s2);
            case ADD, SUBTRACT -> {
                int scale = Math.max(s1, s2);
                yield decimal(Math.max(precision(a) - s1, precision(b) - s2) + scale + 1, scale);
            }
            case MOD -> decimal(Math.max(precision(a), precision(b)), Math.max(s1, s2));
            default -> throw new IllegalArgumentException(op + " is not arithmetic");
        };
    }

    /** The type of an aggregate over {@code arg} (null for COUNT(*)). */
    public static SqlType aggregate(Aggregate.Function function, SqlType arg) {
        return switch (function) {
            case COUNT -> SqlType.BIGINT;
            case AVG -> SqlType.DOUBLE;
            case MIN, MAX -> arg;
            case SUM -> switch (arg.kind()) {
                case INTEGER, BIGINT -> SqlType.BIGINT;
                case DECIMAL -> SqlType.decimal(SqlType.MAX_DECIMAL_PRECISION, arg.scale());
                default -> SqlType.DOUBLE;
            };
        };
    }

    /** Digits of an exact type (integers as DECIMAL(10,0) / DECIMAL(19,0)). */
    public static int precision(SqlType t) {
        return switch (t.kind()) {
            case INTEGER -> 10;
            case BIGINT -> 19;
            case DECIMAL -> t.precision();
            default -> throw new IllegalArgumentException(t + " has no precision");
        };
    }

    public static int scale(SqlType t) {
        return t.kind() == Kind.DECIMAL ? t.scale() : 0;
    }

    /**
     * A product's type: exact when its whole and fraction digits fit 18; otherwise 18 digits that
     * keep the whole digits and give up fraction digits down to 6 (WarpDB's WarpTypeSystem, as
     * SQL Server does), the value rounded half away from zero.
     */
    private static SqlType product(int wholeDigits, int scale) {
        int max = SqlType.MAX_DECIMAL_PRECISION;
        if (wholeDigits + scale <= max) {
            return decimal(wholeDigits + scale, scale);
        }
        int kept = Math.min(scale, Math.max(Math.min(scale, 6), max - wholeDigits));
        return SqlType.decimal(max, kept);
    }

    private static SqlType decimal(int precision, int scale) {
        int s = Math.min(scale, SqlType.MAX_DECIMAL_PRECISION);
        return SqlType.decimal(Math.max(s, Math.min(precision, SqlType.MAX_DECIMAL_PRECISION)), s);
    }
}
