package io.warpdb.fuzz.ast;

import java.util.List;

/**
 * {@code SUBSTRING(s FROM start [FOR length])}. Generated with start >= 1 and length >= 0 only:
 * DuckDB counts a start below 1 from the end of the string, standard SQL does not.
 */
public record Substring(Expr string, Expr start, Expr length) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.VARCHAR;
    }

    @Override
    public String render(Dialect dialect) {
        return "SUBSTRING(" + string.render(dialect) + " FROM " + start.render(dialect)
                + (length != null ? " FOR " + length.render(dialect) : "") + ")";
    }

    @Override
    public List<Node> children() {
        return Nodes.present(string, start, length);
    }

    @Override
    public Node withChildren(List<Node> children) {
        Nodes.Reader r = new Nodes.Reader(children);
        return new Substring(r.next(), r.next(), r.nextIf(length != null));
    }
}
