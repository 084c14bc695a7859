package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * {@code EXTRACT(field FROM date)}: a BIGINT in WarpDB. DuckDB may type it DOUBLE (of a NULL date it
 * picks another overload), which turns a COALESCE or CASE with BIGINT values into DOUBLE: the cast
 * keeps it BIGINT there.
 */
public record Extract(Field field, Expr date) implements Expr {
    /** The fields both engines define alike (DOW: Sunday is 0). */
    public enum Field { YEAR, QUARTER, MONTH, DAY, DOW, DOY }

    @Override
    public SqlType type() {
        return SqlType.BIGINT;
    }

    @Override
    public String render(Dialect dialect) {
        String extract = "EXTRACT(" + field + " FROM " + date.render(dialect) + ")";
        return dialect == Dialect.DUCKDB ? "CAST(" + extract + " AS BIGINT)" : extract;
    }

    @Override
    public List<Node> children() {
        return List.of(date);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Extract(field, (Expr) children.get(0));
    }
}
