package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code s [NOT] LIKE pattern}, with the wildcards % and _ and no escape character. */
public record Like(Expr string, Expr pattern, boolean negated) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.BOOLEAN;
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + string.render(dialect) + (negated ? " NOT LIKE " : " LIKE ") + pattern.render(dialect) + ")";
    }

    @Override
    public List<Node> children() {
        return List.of(string, pattern);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Like((Expr) children.get(0), (Expr) children.get(1), negated);
    }
}
