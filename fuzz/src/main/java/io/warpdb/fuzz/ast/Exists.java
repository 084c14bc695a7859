package io.warpdb.fuzz.ast;

import java.util.List;

/** {@code [NOT] EXISTS (SELECT ...)}. */
public record Exists(Query query, boolean negated) implements Expr {
    @Override
    public SqlType type() {
        return SqlType.BOOLEAN;
    }

    @Override
    public String render(Dialect dialect) {
        return "(" + (negated ? "NOT EXISTS (" : "EXISTS (") + query.render(dialect) + "))";
    }

    @Override
    public List<Node> children() {
        return List.of(query);
    }

    @Override
    public Node withChildren(List<Node> children) {
        return new Exists((Query) children.get(0), negated);
    }
}
