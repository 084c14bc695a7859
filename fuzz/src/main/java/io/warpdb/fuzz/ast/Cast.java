package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * {@code CAST(arg AS target)}. A DOUBLE cast to an integer rounds half away from zero in WarpDB
 * and half to even in DuckDB, so DuckDB gets it over ROUND(arg), which rounds half away from zero.
 */
public record Cast(Expr arg, SqlType target) implements Expr {
    @Override
    public SqlType type() {
        return target;
    }

    @Override
    public String render(Dialect dialect) {
        String value = arg.render(dialect);
        if (dialect == Dialect.DUCKDB && target.isInteger() && arg.type().kind() == SqlType.Kind.DOUBLE) {
            value = "ROUND(" + value + ")";
        }
        // A decimal's text shows its scale, and the engines type computed decimals differently: DuckDB
        // gets WarpDB's scale first. One digit more than the scale, since DuckDB writes DECIMAL(p, p)
        // values without the 0 before the point (.5).
        if (dialect == Dialect.DUCKDB && target.isString() && arg.type().kind() == SqlType.Kind.DECIMAL) {
            int scale = arg.type().scale();
            value = "CAST(" + value + " AS " + SqlType.decimal(Math.max(arg.type().precision(), scale + 1), scale).sql() + ")";
        }
        return "CAST(" + value + " AS " + target.sql() + ")";
    }

    @Override
    public List<Node> children() {
        return List.of(arg);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Cast((Expr) children.get(0), target);
    }
}
