package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code (left op right)}: arithmetic, concatenation, comparison, AND/OR. */
public record Binary(Op op, Expr left, Expr right, SqlType type) implements Expr {
    public enum Op {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/"), MOD("%"), CONCAT("||"),
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="),
        IS_DISTINCT_FROM("IS DISTINCT FROM"), IS_NOT_DISTINCT_FROM("IS NOT DISTINCT FROM"),
        AND("AND"), OR("OR");

        public final String sql;

        Op(String sql) {
            this.sql = sql;
        }

        public boolean isComparison() {
            return ordinal() >= EQ.ordinal() && ordinal() <= IS_NOT_DISTINCT_FROM.ordinal();
        }
    }

    @Override
    public String render(Dialect dialect) {
        String operator = op.sql;
        // WarpDB divides integers as integers (7 / 2 = 3); DuckDB's "/" is a DOUBLE division, its "//" the integer one.
        if (op == Op.DIVIDE && dialect == Dialect.DUCKDB && left.type().isInteger() && right.type().isInteger()) {
            operator = "//";
        }
        String call = "(" + left.render(dialect) + " " + operator + " " + right.render(dialect) + ")";
        // A product of more than 18 digits is DECIMAL(18, s) in WarpDB, its fraction digits rounded down
        // to s where they do not fit; DuckDB's has up to 38 digits and keeps them, and then drops fraction
        // digits in a common type with another DECIMAL. The cast makes DuckDB's alike (fuzz/README.md, 11).
        if (dialect == Dialect.DUCKDB && op == Op.MULTIPLY && type.kind() == SqlType.Kind.DECIMAL
                && TypeRules.precision(left.type()) + TypeRules.precision(right.type()) > SqlType.MAX_DECIMAL_PRECISION) {
            call = "CAST(" + call + " AS " + type.sql() + ")";
        }
        return call;
    }

    @Override
    public List<Node> children() {
        return List.of(left, right);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Binary(op, (Expr) children.get(0), (Expr) children.get(1), type);
    }
}
