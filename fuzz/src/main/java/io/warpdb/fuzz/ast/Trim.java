package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code TRIM(BOTH|LEADING|TRAILING [characters] FROM s)}. */
public record Trim(Side side, Expr characters, Expr string) implements Expr {
    public enum Side { BOTH, LEADING, TRAILING }

    @Override
    public SqlType type() {
        return SqlType.VARCHAR;
    }

    @Override
    public String render(Dialect dialect) {
        return "TRIM(" + side + (characters != null ? " " + characters.render(dialect) : "") + " FROM "
                + string.render(dialect) + ")";
    }

    @Override
    public List<Node> children() {
        return Nodes.present(characters, string);
    }

    @Override
    public Node withChildren(List<Node> children) {
        Nodes.Reader r = new Nodes.Reader(children);
        Expr chars = r.nextIf(characters != null);
        return new Trim(side, chars, r.next());
    }
}
