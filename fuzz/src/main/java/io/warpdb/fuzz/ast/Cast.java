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
