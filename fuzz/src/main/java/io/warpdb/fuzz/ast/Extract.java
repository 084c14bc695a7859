package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code EXTRACT(field FROM date)}: a BIGINT in both engines. */
public record Extract(Field field, Expr date) implements Expr {
    /** The fields both engines define alike (DOW: Sunday is 0). */
    public enum Field { YEAR, QUARTER, MONTH, DAY, DOW, DOY }

    @Override
    public SqlType type() {
        return SqlType.BIGINT;
    }

    @Override
    public String render(Dialect dialect) {
        return "EXTRACT(" + field + " FROM " + date.render(dialect) + ")";
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
